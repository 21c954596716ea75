import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createEverythingServer } from './fixtures.js';

describe('registerMrtrFixtures', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  async function connect(era: 'auto' | 'legacy'): Promise<Client> {
    const server = createEverythingServer({ stepDelayMs: 1 });
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await server.connect(serverSide);
    client = new Client(
      { name: 'mrtr-test', version: '1.0.0' },
      {
        era,
        roots: [{ uri: 'file:///work', name: 'work' }],
        onSampling: () => ({ role: 'assistant', model: 'test-model', content: { type: 'text', text: 'Hi' } }),
        onElicitation: (params) => ({ action: 'accept', content: params.message.startsWith('Step 2') ? { color: 'blue' } : { name: 'Ada', ok: true, context: 'tests' } }),
      },
    );
    await client.connect(clientSide);
    return client;
  }

  for (const era of ['auto', 'legacy'] as const) {
    it(`serves every input-required fixture to a ${era === 'auto' ? '2026-07-28' : '2025-11-25'} client through the same handlers`, async () => {
      const c = await connect(era);
      const call = async (name: string) => JSON.stringify((await c.callTool({ name, arguments: {} })).content);
      expect(await call('test_input_required_result_elicitation')).toContain('Hello, Ada!');
      expect(await call('test_input_required_result_sampling')).toContain('LLM response: Hi');
      expect(await call('test_input_required_result_list_roots')).toContain('file:///work');
      expect(await call('test_input_required_result_request_state')).toContain('state-ok');
      expect(await call('test_input_required_result_multiple_inputs')).toContain('Hi Ada (1 roots)');
      expect(await call('test_input_required_result_multi_round')).toContain('Ada likes blue');
      expect(await call('test_input_required_result_capabilities')).toContain('elicitation=accept; sampling=Hi; roots=1');
      const prompt = await c.getPrompt({ name: 'test_input_required_result_prompt' });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Use this context: tests' });
    });
  }
});
