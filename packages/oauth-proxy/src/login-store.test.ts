import { describe, expect, it } from 'vitest';
import { AdapterLoginStore, LOGIN_MODEL, MemoryLoginStore, type PendingLogin } from './login-store.js';

const LOGIN: PendingLogin = { interactionUid: 'uid-1', codeVerifier: 'verifier', nonce: 'nonce' };

describe('MemoryLoginStore', () => {
  describe('#take', () => {
    it('gives a sign-in back once', async () => {
      const store = new MemoryLoginStore();
      await store.save('state-1', LOGIN, 60);
      expect(await store.take('state-1')).toEqual(LOGIN);
      expect(await store.take('state-1')).toBeUndefined();
    });

    it('gives nothing for an expired sign-in', async () => {
      let now = 1_000_000;
      const store = new MemoryLoginStore({ now: () => now });
      await store.save('state-1', LOGIN, 60);
      now += 60_000;
      expect(await store.take('state-1')).toBeUndefined();
    });
  });

  describe('#save', () => {
    it('drops expired sign-ins and, past the bound, the oldest', async () => {
      let now = 0;
      const store = new MemoryLoginStore({ now: () => now, maxEntries: 2 });
      await store.save('a', LOGIN, 10);
      now = 20_000;
      await store.save('b', LOGIN, 10);
      expect(store.size).toBe(1);
      await store.save('c', LOGIN, 10);
      await store.save('d', LOGIN, 10);
      expect(store.size).toBe(2);
      expect(await store.take('b')).toBeUndefined();
      expect(await store.take('d')).toEqual(LOGIN);
    });
  });
});

describe('AdapterLoginStore', () => {
  it('keeps sign-ins in the adapter under its own model, with their lifetime, and takes them once', async () => {
    const rows = new Map<string, { payload: unknown; expiresIn: number | undefined }>();
    const models: string[] = [];
    const adapter = (name: string) => {
      models.push(name);
      return {
        upsert: (id: string, payload: unknown, expiresIn?: number) => Promise.resolve(void rows.set(id, { payload, expiresIn })),
        find: (id: string) => Promise.resolve(rows.get(id)?.payload as never),
        destroy: (id: string) => Promise.resolve(void rows.delete(id)),
        findByUserCode: () => Promise.resolve(undefined),
        findByUid: () => Promise.resolve(undefined),
        consume: () => Promise.resolve(undefined),
        revokeByGrantId: () => Promise.resolve(undefined),
      };
    };
    const store = new AdapterLoginStore(adapter);
    await store.save('state-1', { ...LOGIN, nonce: undefined }, 120);
    expect(models).toEqual([LOGIN_MODEL]);
    expect(rows.get('state-1')?.expiresIn).toBe(120);
    expect(await store.take('state-1')).toEqual({ ...LOGIN, nonce: undefined });
    expect(await store.take('state-1')).toBeUndefined();
  });
});
