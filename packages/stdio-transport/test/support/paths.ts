/** Absolute paths of the test fixtures, and how to run them with plain node. */
import { fileURLToPath } from 'node:url';

export const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** node itself: fixtures run without a build or a shell. */
export const node = process.execPath;

/** Arguments that let node run a fixture importing this workspace's TypeScript sources. */
export const sourceLoaderArgs: readonly string[] = ['--import', 'tsx', '--conditions=@statemcp/source'];
