// The raw floor: newline-delimited JSON-RPC, no validation.
let big;
const reply = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line.length === 0) continue;
    const { id, method, params } = JSON.parse(line);
    if (method === 'initialize') reply({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } });
    else if (method === 'tools/call') {
      const a = params.arguments;
      if (params.name === 'echo') reply({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: a.text }] } });
      else {
        if (big?.length !== a.bytes) {
          const unit = 'quote " backslash \\ tab \t newline \n plain text ';
          big = unit.repeat(Math.ceil(a.bytes / unit.length)).slice(0, a.bytes);
        }
        reply({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: big }] } });
      }
    } else if (id !== undefined) reply({ jsonrpc: '2.0', id, result: {} });
  }
});
process.stdin.on('end', () => process.exit(0));
