import { describe, expect, it } from 'vitest';
import { McpServer } from './mcp-server.js';
import { resourceKey } from './shared-subscriptions.js';
import { TestBus, TestSubscriptionStore } from './test-cluster.js';
import { flush, initializedClient } from './test-harness.js';

const URI = 'file:///a.txt';

/** Two instances of one server sharing a bus and a subscription store. */
function pair() {
  const bus = new TestBus();
  const subscriptions = new TestSubscriptionStore();
  const instance = (instanceId: string): McpServer => {
    const server = new McpServer({ name: instanceId, version: '1.0.0' }, { cluster: { instanceId, bus, subscriptions } });
    server.registerResource('a', URI, {}, (uri) => ({ contents: [{ uri, text: 'a' }] }));
    return server;
  };
  return { bus, subscriptions, a: instance('a'), b: instance('b') };
}

describe('SharedSubscriptions', () => {
  describe('#publish', () => {
    it('notifies a connection subscribed on A of a change published on B, with one message to A', async () => {
      const { bus, subscriptions, a, b } = pair();
      const subscriber = await initializedClient(a);
      await subscriber.client.request('resources/subscribe', { uri: URI });
      expect(subscriptions.subscribers(resourceKey(URI))).toEqual([`${subscriber.connection.id}@a`]);
      bus.published.length = 0;
      await b.notifyResourceUpdated(URI);
      await flush();
      expect(bus.published).toEqual(['followers:a']);
      expect(subscriber.notifications('notifications/resources/updated').map((message) => message['params'])).toEqual([{ uri: URI }]);
    });

    it('publishes nothing when the key has no subscribers, and notifies its own subscribers without the bus', async () => {
      const { bus, a } = pair();
      await a.notifyResourceUpdated(URI);
      expect(bus.published).toEqual([]);
      const subscriber = await initializedClient(a);
      await subscriber.client.request('resources/subscribe', { uri: URI });
      await a.notifyResourceUpdated(URI);
      await flush();
      expect(bus.published).toEqual([]);
      expect(subscriber.notifications('notifications/resources/updated')).toHaveLength(1);
    });
  });

  describe('#drop', () => {
    it('removes the subscriptions of a connection that unsubscribed or ended', async () => {
      const { subscriptions, a } = pair();
      const first = await initializedClient(a);
      const second = await initializedClient(a);
      await first.client.request('resources/subscribe', { uri: URI });
      await second.client.request('resources/subscribe', { uri: URI });
      await first.client.request('resources/unsubscribe', { uri: URI });
      expect(subscriptions.subscribers(resourceKey(URI))).toEqual([`${second.connection.id}@a`]);
      await second.client.close();
      await flush();
      expect(subscriptions.subscribers(resourceKey(URI))).toEqual([]);
    });
  });

  describe('#close', () => {
    it('drops the remaining subscribers and leaves the instance channel when the server closes', async () => {
      const { bus, subscriptions, a } = pair();
      const subscriber = await initializedClient(a);
      await subscriber.client.request('resources/subscribe', { uri: URI });
      expect(bus.channels.has('followers:a')).toBe(true);
      await a.close();
      expect(subscriptions.subscribers(resourceKey(URI))).toEqual([]);
      expect(bus.channels.has('followers:a')).toBe(false);
    });
  });
});
