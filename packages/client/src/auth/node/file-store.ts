/**
 * An {@link OAuthStore} in one JSON file, readable by its owner only (mode 0600), written
 * atomically (a temporary file renamed over it).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OAuthClientRegistration, OAuthStore, OAuthStoredTokens } from '../store.js';

interface FileContents {
  clients: Record<string, OAuthClientRegistration>;
  tokens: Record<string, OAuthStoredTokens>;
}

/**
 * Keeps registrations and tokens in `path` across runs of a CLI.
 *
 * @example
 * ```ts
 * const store = new FileOAuthStore(join(homedir(), '.config', 'my-cli', 'oauth.json'));
 * ```
 */
export class FileOAuthStore implements OAuthStore {
  readonly #path: string;
  /** Writes run one after another. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.#path = path;
  }

  /** The registration kept for `issuer`, read from the file. */
  async getClient(issuer: string): Promise<OAuthClientRegistration | undefined> {
    return (await this.#read()).clients[issuer];
  }

  /** Keeps or forgets the registration for `issuer`; the file is rewritten atomically. */
  setClient(issuer: string, registration: OAuthClientRegistration | undefined): Promise<void> {
    return this.#update((contents) => {
      if (registration === undefined) delete contents.clients[issuer];
      else contents.clients[issuer] = registration;
    });
  }

  /** The tokens kept for `resource`, read from the file. */
  async getTokens(resource: string): Promise<OAuthStoredTokens | undefined> {
    return (await this.#read()).tokens[resource];
  }

  /** Keeps or forgets the tokens for `resource`; the file is rewritten atomically. */
  setTokens(resource: string, tokens: OAuthStoredTokens | undefined): Promise<void> {
    return this.#update((contents) => {
      if (tokens === undefined) delete contents.tokens[resource];
      else contents.tokens[resource] = tokens;
    });
  }

  async #read(): Promise<FileContents> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return { clients: {}, tokens: {} };
      throw error;
    }
    const parsed = JSON.parse(text) as Partial<FileContents>;
    return { clients: parsed.clients ?? {}, tokens: parsed.tokens ?? {} };
  }

  #update(change: (contents: FileContents) => void): Promise<void> {
    const run = this.#queue.then(async () => {
      const contents = await this.#read();
      change(contents);
      await mkdir(dirname(this.#path), { recursive: true, mode: 0o700 });
      const temporary = `${this.#path}.${crypto.randomUUID()}.tmp`;
      await writeFile(temporary, JSON.stringify(contents, null, 2), { mode: 0o600 });
      await rename(temporary, this.#path);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
