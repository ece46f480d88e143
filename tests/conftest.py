import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

# the suite's own cache folder (kept game states, entry points), for it and every command it
# starts: its thousands of throwaway games must not fill the user's ~/.cache/bansha
if "BANSHA_CACHE_DIR" not in os.environ:
    os.environ["BANSHA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bansha-test-cache-")
    atexit.register(shutil.rmtree, os.environ["BANSHA_CACHE_DIR"], True)

sys.path.insert(0, str(Path(__file__).parent / "kernel"))

import structlog  # noqa: E402
import toyroles  # noqa: E402
from bansha.engine import registry  # noqa: E402

# the kernel's own tests play the test-only roles of tests/kernel/toyroles.py
registry.register_local("toy", toyroles)

# the engine logs every ruling at debug level; keep test output to what failed
structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
