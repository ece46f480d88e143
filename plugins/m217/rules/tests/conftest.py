import structlog

# the engine logs every ruling at debug level; keep the CLI's --json output clean
structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
