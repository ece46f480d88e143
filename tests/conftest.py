import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "kernel"))

import structlog  # noqa: E402
import toyroles  # noqa: E402
from bansha import registry  # noqa: E402

# the kernel's own tests play the test-only roles of tests/kernel/toyroles.py
registry.register_local("toy", toyroles)

# the engine logs every ruling at debug level; keep test output to what failed
structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
