"""`python -m mnemon` and the `mnemon` console script.

The cyclic collector is off from the first import: its passes over the objects the imports create (click's, numpy's,
the package's) free nothing in a process that runs one command. A long-running command (`mcp`, `ingest`, …) switches
it back on (`interfaces.cli.main._one_shot_process`)."""
import gc
import sys


def run() -> int:
    gc.disable()
    from mnemon.interfaces.cli.main import main

    return main()


if __name__ == "__main__":
    sys.exit(run())
