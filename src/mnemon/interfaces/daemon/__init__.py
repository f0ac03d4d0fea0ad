"""The resident process: a warm `mnemon` that CLI calls hand their command to.

Every `mnemon remember` / `mnemon recall` (and `search`, `retrieve`, `surface`: the calls agents' hooks make) is a
new Python process, and with the local model most of its time is not
the command but the start: numpy's import, the model's load and first embedding, the store's caches — 150–300 ms of a
call whose work takes 10–20 ms. The first such call that had to pay it leaves a resident process behind (`server`);
later calls find its socket and send it their arguments, working directory and environment (`client`), and it runs
the very same command line through the very same CLI, with the store and the model already open, and sends back
what the command printed and its exit code. Nothing about a command's result depends on which process ran it.

One resident process per user and installed code (the socket's name is a fingerprint of the interpreter and of the
package's files, so an upgrade never talks to old code); it serves any store, one command at a time, and exits after
15 idle minutes. `MNEMON_DAEMON=off` (or `"daemon": false` in the config file) keeps every call in its own process.
A resident process that does not take a call within `MNEMON_DAEMON_WAIT` seconds (stopped, wedged, busy) is passed
by: the call runs in its own process. `mnemon daemon stop` lets the call in flight finish (no new one is taken);
`--force` interrupts one still running after a wait — its transaction rolls back, its caller gets `daemon_stopped` —
and names it in its answer (`interrupted`); a process that does not answer at all is ended by signal.
"""
