/**
 * A command-line client of a server behind OAuth, signing its user in with the authorization
 * code grant: a loopback redirect listener on 127.0.0.1 and the tokens kept in a private file,
 * so the next run signs in silently (or with a refresh). Type-checked by the examples' build;
 * the flow needs a person at a browser, so the tests run the client-credentials example instead.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@statemcp/client';
import { OAuthClientProvider } from '@statemcp/client/auth';
import { FileOAuthStore, loopbackAuthorization } from '@statemcp/client/auth/node';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';

/** Lists the tools of `serverUrl`, signing the user in first when needed. */
export async function listToolsAsUser(serverUrl: string): Promise<string[]> {
  const login = await loopbackAuthorization({ open: (url) => console.error(`Sign in at ${url.href}`) });
  try {
    const authProvider = new OAuthClientProvider({
      // Registered on first use by Dynamic Client Registration (or set clientMetadataUrl: a Client ID Metadata Document).
      clientMetadata: { client_name: 'report-cli', redirect_uris: [login.redirectUri] },
      authorize: login.authorize,
      store: new FileOAuthStore(join(homedir(), '.report-cli', 'oauth.json')),
    });
    const client = new Client({ name: 'report-cli', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(serverUrl, { authProvider }));
    const { tools } = await client.listTools();
    await client.close();
    return tools.map((tool) => tool.name);
  } finally {
    await login.close();
  }
}
