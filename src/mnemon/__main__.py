import sys

from mnemon.interfaces.cli.main import main

sys.exit(main())
