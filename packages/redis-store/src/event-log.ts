/**
 * Where {@link RedisEventStore} keeps a stream's events, and its event ids: pure naming, no I/O.
 *
 * The SSE streams of one session transport are `<key>.0` (the standalone stream), `<key>.1`, … (its
 * POST streams): they share one Redis Stream, the session's *log*, named by `<key>` (the stream id
 * up to its last `.`), each entry naming its stream by the rest (`.1` → member `1`). A stream id
 * without a `.` is a log of its own, member `''`. So a POST creates no key: Redis allocates a log's
 * first node once per session, and each POST's events are `XADD`s to an existing Stream.
 *
 * Event ids are `<stream>;<entry>`, `<entry>` the Redis entry id in the log (`<ms>-<seq>`). Ids
 * issued by versions that kept one Redis Stream per SSE stream are `<stream>:<entry>`; they are
 * still read, from that Stream (see {@link parseEventId}). The separator is the last `;` or `:` of
 * the id, since an entry id holds neither.
 */

/** A Redis Stream entry id, `<ms>-<seq>`, as numbers. */
export interface EntryId {
  readonly ms: bigint;
  readonly seq: bigint;
}

/** The log a stream's events are in, and the stream's name inside it. */
export interface StreamPlace {
  readonly log: string;
  readonly member: string;
}

/** An event id taken apart: `layout` says which Redis Stream holds its entry. */
export interface ParsedEventId {
  /** `log`: the session's log (this version); `stream`: a Stream of its own (earlier versions). */
  readonly layout: 'log' | 'stream';
  readonly streamId: string;
  readonly entry: string;
  readonly parsed: EntryId;
}

/** The separator of this version's event ids. */
const LOG_SEPARATOR = ';';
/** The separator of the ids of versions with one Redis Stream per SSE stream. */
const STREAM_SEPARATOR = ':';

/** Where the events of `streamId` are kept. */
export function placeOf(streamId: string): StreamPlace {
  const dot = streamId.lastIndexOf('.');
  return dot < 0 ? { log: streamId, member: '' } : { log: streamId.slice(0, dot), member: streamId.slice(dot + 1) };
}

/** The id of the event stored at `entry` of the log of `streamId`. */
export function eventIdOf(streamId: string, entry: string): string {
  return `${streamId}${LOG_SEPARATOR}${entry}`;
}

/** The id an earlier version gave the event at `entry` of the Stream of `streamId` alone. */
export function streamEventIdOf(streamId: string, entry: string): string {
  return `${streamId}${STREAM_SEPARATOR}${entry}`;
}

/** `<ms>-<seq>` as numbers; undefined when malformed. */
export function parseEntry(text: string): EntryId | undefined {
  const match = /^([0-9]{1,20})-([0-9]{1,20})$/.exec(text);
  if (match === null) return undefined;
  return { ms: BigInt(match[1] ?? '0'), seq: BigInt(match[2] ?? '0') };
}

/** Orders two entry ids as Redis does. */
export function compareEntries(a: EntryId, b: EntryId): number {
  if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
  return a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1;
}

/** Takes an event id of either layout apart; undefined when it is neither. */
export function parseEventId(eventId: string): ParsedEventId | undefined {
  const at = Math.max(eventId.lastIndexOf(LOG_SEPARATOR), eventId.lastIndexOf(STREAM_SEPARATOR));
  if (at <= 0) return undefined;
  const entry = eventId.slice(at + 1);
  const parsed = parseEntry(entry);
  if (parsed === undefined) return undefined;
  return { layout: eventId[at] === LOG_SEPARATOR ? 'log' : 'stream', streamId: eventId.slice(0, at), entry, parsed };
}
