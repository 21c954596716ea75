/**
 * The Lua scripts of {@link RedisEventStore} (redis-event-store.ts) and how they are sent: by
 * digest, whole (and so loaded) the first time a Redis node lacks it (a promoted replica never saw
 * it: scripts are replicated by their effects). Every key a script touches carries the same hash
 * tag, the session's log (event-log.ts), so on a Redis Cluster they share a slot.
 *
 * A log's entries are `s <member> m <data>`, the last of a batch `s <member> m <data> w <token>`.
 */
import { createHash } from 'node:crypto';
import { ErrorReply } from '@redis/client';
import type { RedisCommandClient } from './redis-connection.js';

/** The field of an entry naming its stream within the log. */
export const MEMBER_FIELD = 's';
/** The field holding an event's data (JSON; empty for a priming event). */
export const DATA_FIELD = 'm';

/** A script's source and digest. */
export interface Script {
  readonly source: string;
  readonly sha1: string;
}

function script(source: string): Script {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * One batch of a stream's writes as one command (stream-writes.ts): KEYS[1] the session's log,
 * KEYS[2] the stream's requests record, KEYS[3] the set of the log's streams (their member names,
 * what lets {@link REMOVE} drop a whole log without reading it); ARGV[1] MAXLEN of the log, ARGV[2] the time to live in ms,
 * ARGV[3] what the record gets (`set`: ARGV[4], `refresh`: its time to live, `none`: nothing),
 * ARGV[5] the batch's token, ARGV[6] `again` when the batch is sent a second time, ARGV[7] the
 * stream's member name, ARGV[8…] the events' data in order. Returns their entry ids.
 *
 * The last event of a batch carries its token (field `w`), so a batch sent again after its first
 * answer was lost (a cluster's slot-map refresh cut the connection: redis-connection.ts) finds
 * its events if the first send ran, and returns their ids instead of adding them twice. A batch's
 * entries are consecutive in the log: the script runs atomically.
 */
export const WRITE = script(`local n = #ARGV - 7
local ids
if ARGV[6] == 'again' and n > 0 then
  local recent = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', ARGV[1])
  for i = 1, #recent do
    local fields = recent[i][2]
    if fields[5] == 'w' and fields[6] == ARGV[5] then
      ids = {}
      for j = 1, n do
        local entry = recent[i + n - j]
        ids[j] = entry ~= nil and entry[1]
      end
      break
    end
  end
end
if ids == nil then
  ids = {}
  for i = 1, n - 1 do
    ids[i] = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*', '${MEMBER_FIELD}', ARGV[7], '${DATA_FIELD}', ARGV[i + 7])
  end
  if n > 0 then ids[n] = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*', '${MEMBER_FIELD}', ARGV[7], '${DATA_FIELD}', ARGV[n + 7], 'w', ARGV[5]) end
end
if n > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('SADD', KEYS[3], ARGV[7])
  redis.call('PEXPIRE', KEYS[3], ARGV[2])
end
if ARGV[3] == 'set' then redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[2])
elseif ARGV[3] == 'refresh' then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return ids`);

/**
 * Forgets streams of one log: KEYS[1] the log, KEYS[2] the set of its streams, KEYS[3…] their
 * requests records; ARGV the streams' member names, each once. The records go. When the set holds
 * no other stream (a session's end removes every stream of its transport), the log and the set go
 * whole (`UNLINK`): O(streams removed), the log is not read. Else the streams' entries are deleted
 * one by one (`XDEL`) after a read of the whole log, O(entries of the log, which `MAXLEN` bounds).
 * Returns 1 when the log went whole, 0 otherwise.
 */
export const REMOVE = script(`for i = 3, #KEYS, 500 do redis.call('UNLINK', unpack(KEYS, i, math.min(i + 499, #KEYS))) end
local listed = 0
for i = 1, #ARGV, 500 do
  local present = redis.call('SMISMEMBER', KEYS[2], unpack(ARGV, i, math.min(i + 499, #ARGV)))
  for j = 1, #present do listed = listed + present[j] end
end
if listed == redis.call('SCARD', KEYS[2]) then
  redis.call('UNLINK', KEYS[1], KEYS[2])
  return 1
end
local removed = {}
for i = 1, #ARGV do removed[ARGV[i]] = true end
local doomed = {}
local cursor = '-'
while true do
  local page = redis.call('XRANGE', KEYS[1], cursor, '+', 'COUNT', 500)
  for i = 1, #page do
    local fields = page[i][2]
    local member = ''
    if fields[1] == '${MEMBER_FIELD}' then member = fields[2] end
    if removed[member] then doomed[#doomed + 1] = page[i][1] end
  end
  if #page < 500 then break end
  cursor = '(' .. page[#page][1]
end
for i = 1, #doomed, 500 do redis.call('XDEL', KEYS[1], unpack(doomed, i, math.min(i + 499, #doomed))) end
for i = 1, #ARGV, 500 do redis.call('SREM', KEYS[2], unpack(ARGV, i, math.min(i + 499, #ARGV))) end
return 0`);

/** Runs `script` by its digest, sending it whole when the node lacks it. */
export function runScript(client: RedisCommandClient, { source, sha1 }: Script, call: { keys: string[]; arguments: string[] }): Promise<unknown> {
  return client.evalSha(sha1, call).catch((error: unknown) => {
    if (error instanceof ErrorReply && error.message.startsWith('NOSCRIPT')) return client.eval(source, call);
    throw error;
  });
}
