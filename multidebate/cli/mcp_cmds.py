"""`mcp`: the MCP server over stdio (multidebate/mcp), for assistants without a shell."""

from __future__ import annotations

import click

__all__ = ["mcp"]

MISSING_EXTRA = ("the MCP server needs the `mcp` extra, which is not installed: pip install 'multidebate[mcp]' (in a "
                 "clone: pip install '.[mcp]')")


@click.command()
def mcp() -> None:
    """Serve the debate tools over MCP on stdin and stdout (needs the `mcp` extra).

    Tools: debate_next, debate_write, debate_status, debate_report and
    debate_init, with the semantics of `next`, `write`, `status`, `report`
    and `init`.  The server keeps each slug's key in the user's private
    state (~/.local/state/multidebate/mcp-keys/), so the model never sees
    it.  It offers no `retire` or `handover`: those stay a person's.
    An assistant starts it itself; docs/mcp.md shows how to configure each.

    \b
    Example:
      multidebate mcp    # as an assistant runs it: claude mcp add multidebate -- multidebate mcp
    """
    try:
        from ..mcp.server import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("mcp", "mcp_types", "pydantic", "anyio"):
            raise
        raise click.ClickException(MISSING_EXTRA) from exc
    serve()
