/**
 * @statemcp/inspector — see MCP lifecycles live. `startInspector()` serves a page that shows
 * every statemcp session of the process (clients and servers, on any transport) as the
 * six-state connection diagram with its walk, the request ledger and a filterable timeline.
 * The `statemcp-inspect` command connects statemcp's client to any MCP server and opens the
 * same page with buttons to list and call tools, read resources and get prompts.
 */
export { EventFeed } from './event-feed.js';
export type { EventFeedOptions, FeedBatch } from './event-feed.js';
export { INSPECTOR_COMMAND_METHODS, startInspector } from './inspector-server.js';
export type { Inspector, InspectorCommandHandler, InspectorCommandMethod, InspectorOptions } from './inspector-server.js';
export { connectionGraph, requestGraph, taskGraph } from './machine-graph.js';
export type { MachineEdge, MachineGraph } from './machine-graph.js';
export { INSPECT_USAGE, clientCommands, parseInspectArgs, runInspect, transportFor } from './inspect-command.js';
export type { InspectCommandLine, InspectSession, InspectTarget } from './inspect-command.js';
export { main } from './cli.js';
