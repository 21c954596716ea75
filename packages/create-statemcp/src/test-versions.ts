/** The dependency ranges tests generate projects with: the workspace's own versions, as the build reads them. */
import { readFileSync } from 'node:fs';
import type { DependencyVersions } from './template/project-files.js';

const version = (folder: string): string => (JSON.parse(readFileSync(new URL(`../../${folder}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;

export const TEST_VERSIONS: DependencyVersions = {
  '@statemcp/protocol': `^${version('protocol')}`,
  '@statemcp/server': `^${version('server')}`,
  '@statemcp/client': `^${version('client')}`,
  '@statemcp/stdio-transport': `^${version('stdio-transport')}`,
  '@statemcp/http-transport': `^${version('http-transport')}`,
  '@statemcp/inspector': `^${version('inspector')}`,
  zod: '^4.0.0',
  typescript: '^5.9.3',
  vitest: '^4.1.12',
  '@types/node': '^20.19.43',
};
