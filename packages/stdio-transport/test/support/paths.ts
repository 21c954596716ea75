/** Absolute paths of the test fixtures, and how to run them with plain node. */
import { fileURLToPath } from 'node:url';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';

export const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** node itself: fixtures run without a build or a shell. */
export const node = process.execPath;

/**
 * The script to run for a fixture that imports this workspace's TypeScript sources: the fixture
 * bundled once per test process by `@statemcp/testing/node-bundle`, so each child starts from
 * one JavaScript file instead of compiling the sources again through tsx.
 */
export const sourceFixture = (name: string): Promise<string> => bundleNodeScript(fixture(name));
