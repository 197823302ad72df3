"""Click commands: each parses options, calls the library, maps results to output and exit codes."""
