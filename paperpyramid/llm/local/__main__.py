"""``python -m paperpyramid.llm.local [--dir FOLDER]``: install the local LLM's weights (see :mod:`.weights`)."""

import sys

from paperpyramid.llm.local.weights import main

sys.exit(main())
