"""The MCP server (`multidebate mcp`): the debate tools for assistants that reach tools through MCP.

`tools` holds what each tool does, with the library only; `server` wires it to the SDK (the `mcp` extra,
imported only when the command runs); `keys` is where the server keeps each slug's key; `clients` reads
which assistants have the server configured or the plugin installed (for `doctor`).
"""
