// Calls one tool of a stdio MCP server with the official TypeScript SDK
// client and prints the CallToolResult as JSON.
// Usage: node ts-client.mjs SDK_DIR TOOL ARGS_JSON -- COMMAND [ARG...]
import { createRequire } from 'module';
import path from 'path';

const [sdkDir, toolName, argsJSON, sep, command, ...commandArgs] = process.argv.slice(2);
if (sep !== '--' || !command) {
  console.error('usage: node ts-client.mjs SDK_DIR TOOL ARGS_JSON -- COMMAND [ARG...]');
  process.exit(2);
}
const require = createRequire(path.join(sdkDir, 'package.json'));
const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'));

const client = new Client({ name: 'ts-client', version: '1' });
await client.connect(new StdioClientTransport({ command, args: commandArgs, env: process.env }));
const result = await client.callTool({ name: toolName, arguments: JSON.parse(argsJSON) });
process.stdout.write(JSON.stringify(result) + '\n');
await client.close();
