import { describe, expect, it } from 'vitest';
import { eventIdOf, parseEventId, placeOf, streamEventIdOf } from './event-log.js';

describe('event-log', () => {
  describe('#placeOf', () => {
    it('puts the streams of one session transport in one log, named by the part before the last dot', () => {
      expect(placeOf('36.sess.a.b.uuid.0')).toEqual({ log: '36.sess.a.b.uuid', member: '0' });
      expect(placeOf('36.sess.a.b.uuid.12')).toEqual({ log: '36.sess.a.b.uuid', member: '12' });
      expect(placeOf('plain')).toEqual({ log: 'plain', member: '' });
    });
  });

  describe('#parseEventId', () => {
    it('reads ids of this layout and of the previous one, whatever separators the stream id holds', () => {
      expect(parseEventId(eventIdOf('s:1;x.2', '17-3'))).toEqual({ layout: 'log', streamId: 's:1;x.2', entry: '17-3', parsed: { ms: 17n, seq: 3n } });
      expect(parseEventId(streamEventIdOf('s;1:x.2', '17-3'))).toEqual({ layout: 'stream', streamId: 's;1:x.2', entry: '17-3', parsed: { ms: 17n, seq: 3n } });
    });

    it('refuses an id without a stream or a well-formed entry', () => {
      for (const id of ['', ';1-0', ':1-0', 'k.1', 'k.1;12', 'k.1:1-x', 'k.1;1-0;', 'k.1;123456789012345678901-0']) expect(parseEventId(id)).toBeUndefined();
    });
  });
});
