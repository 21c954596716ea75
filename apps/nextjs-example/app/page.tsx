export default function Home() {
  return (
    <main>
      <h1>statemcp on Next.js</h1>
      <p>
        MCP endpoints: <code>/api/mcp</code> (Node.js runtime, sessions and resumable streams) and <code>/api/edge/mcp</code> (Edge runtime,
        stateless).
      </p>
    </main>
  );
}
