"""The HTTP API and the graph workbench page (`mnemon serve`)."""
