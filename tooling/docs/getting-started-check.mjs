// Follows docs/guide/getting-started.md as a new user would, from an empty directory with npm only:
// runs the guide's set-up commands (with the packages' tarballs in place of the registry, since
// they are not published from here), writes the two files the guide shows, runs the stdio client
// and compares its output with the output printed in the guide, then runs the HTTP server and
// points the client at the URL it prints. Called by tooling/scripts/pack-check.mjs with the tarballs.
// The root README's first screen shows the same install line, the same two files and the same output
// (`readmeProblems`, also run by readme-snippets-check.mjs), so following the guide runs it too.
//
//   node tooling/docs/getting-started-check.mjs <directory with the .tgz files> <scratch directory>
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const guidePath = join(root, 'docs', 'guide', 'getting-started.md');

/** The fenced blocks of a Markdown text with their info string, in order. */
export function fencedBlocks(markdown) {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ lang: match[1], body: match[2] }));
}

/** The guide's set-up block with each `@statemcp/x` replaced by its tarball (and protocol added). */
export function setUpScript(block, tarballFor) {
  return block
    .split('\n')
    .map((line) => {
      if (!line.startsWith('npm install ')) return line;
      const replaced = line.replace(/@statemcp\/[a-z-]+/g, (name) => tarballFor(name));
      return `${replaced} ${tarballFor('@statemcp/protocol')} --no-audit --no-fund --loglevel=error`;
    })
    .join('\n');
}

/**
 * Where the root README's first screen differs from the guide: it must show the guide's
 * `npm install` line, the two files the guide includes (verbatim, as code blocks) and the guide's
 * expected output. Returns the problems (empty: none).
 */
export function readmeProblems() {
  const guide = readFileSync(guidePath, 'utf8');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const readmeBlocks = fencedBlocks(readme);
  const problems = [];
  const install = /^npm install .*$/m.exec(guide)?.[0];
  if (install === undefined || !readmeBlocks.some((block) => block.lang === 'sh' && block.body.split('\n').includes(install))) {
    problems.push(`README.md: no sh block with the guide's install line (${install ?? 'none in the guide'})`);
  }
  for (const [, file] of guide.matchAll(/^<<< @\/\.\.\/(\S+?\.mjs)/gm)) {
    const text = readFileSync(join(root, file), 'utf8');
    if (!readmeBlocks.some((block) => block.body === text)) problems.push(`README.md: no code block equal to ${file}`);
  }
  const expected = fencedBlocks(guide).find((block) => block.lang === '' && block.body.includes('add(2, 3) = 5'));
  if (expected === undefined || !readmeBlocks.some((block) => block.lang === '' && block.body === expected.body)) {
    problems.push("README.md: no output block equal to the guide's");
  }
  return problems;
}

function runNode(args, cwd) {
  return execFileSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 60_000 });
}

/** Starts `node server.mjs --http` on a free port and resolves with its URL and the child. */
function startHttpServer(cwd) {
  const child = spawn(process.execPath, ['server.mjs', '--http'], { cwd, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolveStart, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed by server.mjs --http: ${output}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`server.mjs --http exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /https?:\/\/\S+/.exec(output)?.[0];
      if (url !== undefined) {
        clearTimeout(timer);
        resolveStart({ url, child });
      }
    });
  });
}

export async function checkGettingStarted(tarballDir, scratch) {
  const differences = readmeProblems();
  if (differences.length > 0) throw new Error(differences.join('\n'));
  const guide = readFileSync(guidePath, 'utf8');
  const blocks = fencedBlocks(guide);
  const tarballs = readdirSync(tarballDir).filter((file) => file.endsWith('.tgz'));
  const tarballFor = (name) => {
    const prefix = `${name.slice(1).replace('/', '-')}-`;
    const file = tarballs.find((candidate) => candidate.startsWith(prefix) && /^\d/.test(candidate.slice(prefix.length)));
    if (file === undefined) throw new Error(`no tarball for ${name} in ${tarballDir}`);
    return join(tarballDir, file);
  };

  // 1. The set-up commands, as written (mkdir + cd, npm init, npm pkg set, npm install).
  const setUp = blocks.find((block) => block.lang === 'sh' && block.body.includes('npm init'));
  if (setUp === undefined) throw new Error('the guide has no set-up block');
  mkdirSync(scratch, { recursive: true });
  execFileSync('bash', ['-euo', 'pipefail', '-c', setUpScript(setUp.body, tarballFor)], { cwd: scratch, stdio: 'inherit' });
  const project = join(scratch, /mkdir (\S+)/.exec(setUp.body)?.[1] ?? '.');

  // 2. The files the guide shows (each included from apps/examples/getting-started).
  for (const [, file] of guide.matchAll(/^<<< @\/\.\.\/(\S+?\.mjs)/gm)) copyFileSync(join(root, file), join(project, file.split('/').pop()));

  // 3. stdio: the output must be what the guide prints.
  const expected = blocks.find((block) => block.lang === '' && block.body.includes('add(2, 3) = 5'));
  if (expected === undefined) throw new Error('the guide prints no expected output');
  const stdio = runNode(['client.mjs'], project);
  if (stdio.trim() !== expected.body.trim()) throw new Error(`stdio output differs from the guide:\n${stdio}\nexpected:\n${expected.body}`);
  console.log(`  stdio: the output matches the guide\n${stdio.trimEnd().replace(/^/gm, '    ')}`);

  // 4. Streamable HTTP: server.mjs --http, then client.mjs <url>; same output.
  const { url, child } = await startHttpServer(project);
  try {
    const http = runNode(['client.mjs', url], project);
    if (http.trim() !== expected.body.trim()) throw new Error(`HTTP output differs from the guide:\n${http}`);
    console.log(`  Streamable HTTP (${url}): the output matches the guide`);
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [tarballDir, scratch] = process.argv.slice(2);
  if (tarballDir === undefined || scratch === undefined) {
    console.error('usage: node tooling/docs/getting-started-check.mjs <tarball directory> <scratch directory>');
    process.exit(2);
  }
  await checkGettingStarted(resolve(tarballDir), resolve(scratch));
}
