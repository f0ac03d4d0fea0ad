"""Agent hosts wired to mnemon: `mnemon setup` writes what a host needs to use the memory (a skill or guide, its
hooks, the MCP server entry) and `mnemon hook` is what those hooks run. Nothing here touches a store but the hooks,
which read it through the facade like any other command."""
