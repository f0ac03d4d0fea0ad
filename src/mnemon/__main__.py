"""`python -m mnemon` and the `mnemon` console script.

A `remember` or `recall` first tries the resident process (`interfaces/daemon`): when one is listening, the call
hands it the command line and prints its answer without importing anything else of mnemon.

The cyclic collector is off from the first import: its passes over the objects the imports create (click's, numpy's,
the package's) free nothing in a process that runs one command. A long-running command (`mcp`, `ingest`, …) switches
it back on (`interfaces.cli.main._one_shot_process`)."""
import gc
import os
import sys


def run() -> int:
    gc.disable()
    from mnemon.interfaces.daemon import client

    argv = sys.argv[1:]
    if client.forwardable(argv) and client.enabled(os.environ):
        code = client.forward(argv, os.environ)
        if code is not None:
            return code
    from mnemon.interfaces.cli.main import main

    return main()


if __name__ == "__main__":
    sys.exit(run())
