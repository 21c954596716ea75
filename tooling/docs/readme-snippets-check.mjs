// Keeps the code in the READMEs honest. Every ```ts / ```js block of the root README and of
// packages/*/README.md must be one of:
//
//   (a) verbatim from a file a test runs: the block is part of an example file (packages/*/examples,
//       apps/*/src, …) that some *.test.ts imports, after the file's relative imports of its own
//       package's source are written as the published import (`'../src/index.js'` →
//       `'@statemcp/server'`, found through the package's `exports`);
//   (b) an outline, marked by an HTML comment right above the block, type-checked here against the
//       packages (their source, as the workspace's tests see them). The comment may carry hidden
//       declarations for the names the outline uses without defining:
//
//         <!-- outline
//         import type { McpServer } from '@statemcp/server';
//         declare const server: McpServer;
//         -->
//
// Run by `pnpm docs` and by `pnpm test` (this package's test script). Exits 1 and names each
// block that is neither, and each outline that does not compile.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { readmeProblems } from './getting-started-check.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const CODE_LANGUAGES = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs', 'tsx']);
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '.turbo', '.git']);

/** The READMEs whose code blocks are checked. */
export function readmePaths() {
  const packages = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name, 'README.md'));
  return [join(root, 'README.md'), ...packages.filter((path) => existsSync(path))];
}

/**
 * The fenced code blocks of a Markdown text: language, body, line of the opening fence, and the
 * outline marker above it (`undefined`: none; else the hidden declarations it carries).
 */
export function codeBlocks(markdown) {
  const blocks = [];
  const pattern = /^```([\w-]*)[^\n]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (const match of markdown.matchAll(pattern)) {
    const before = markdown.slice(0, match.index);
    const line = before.split('\n').length;
    const marker = /^<!--\s*outline\b([\s\S]*?)-->\s*$/.exec(before.slice(before.lastIndexOf('<!--')));
    blocks.push({ language: match[1] ?? '', body: match[2] ?? '', line, outline: marker === null ? undefined : (marker[1] ?? '').trim() });
  }
  return blocks;
}

function walk(dir, out) {
  for (const entry of readdirSync(dir)) {
    if (SKIPPED_FOLDERS.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|mts|js|mjs)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Maps a source file of a workspace package to its published specifier, from `exports`' source condition. */
function publishedSpecifiers() {
  const specifiers = new Map();
  for (const name of readdirSync(join(root, 'packages'))) {
    const manifestPath = join(root, 'packages', name, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'object' && target !== null ? target['@statemcp/source'] : undefined;
      if (typeof source !== 'string') continue;
      specifiers.set(resolve(root, 'packages', name, source), subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`);
    }
    specifiers.set(join(root, 'packages', name, 'src'), manifest.name);
  }
  return specifiers;
}

/**
 * An example file's text with its relative imports of package source written as published
 * imports: by the export naming that module (`mainEntry` false), or as the package's main entry,
 * which re-exports its subpaths (`mainEntry` true).
 */
function asPublished(path, text, specifiers, mainEntry) {
  return text.replace(/(from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g, (whole, prefix, specifier) => {
    const target = resolve(dirname(path), specifier).replace(/\.js$/, '.ts');
    let published = mainEntry ? undefined : specifiers.get(target);
    for (let folder = dirname(target); published === undefined && folder.startsWith(join(root, 'packages')); folder = dirname(folder)) {
      if (folder.endsWith('/src')) published = specifiers.get(folder);
    }
    return published === undefined ? whole : `${prefix}'${published}'`;
  });
}

/** Example files some test imports, as published (both ways): [path, text]. */
export function testedExamples() {
  const files = [...walk(join(root, 'packages'), []), ...walk(join(root, 'apps'), [])];
  const tests = files.filter((path) => /\.test\.ts$/.test(path)).map((path) => readFileSync(path, 'utf8'));
  const specifiers = publishedSpecifiers();
  return files
    .filter((path) => !/\.test\.ts$/.test(path))
    .filter((path) => {
      const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.(ts|mts|js|mjs)$/, '');
      return tests.some((test) => test.includes(`/${base}.js'`) || test.includes(`/${base}.mjs'`));
    })
    .flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      return [[path, asPublished(path, text, specifiers, false)], [path, asPublished(path, text, specifiers, true)]];
    });
}

/** Type-checks the outlines as modules of this folder (so `@statemcp/*` resolve here). */
export function typeCheckOutlines(outlines) {
  const configPath = join(here, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (config === undefined) throw new Error(`cannot read ${configPath}`);
  // JavaScript outlines are checked as TypeScript too: the check is that the names and calls exist.
  const virtual = new Map(outlines.map((outline, index) => [join(here, '.readme-snippets', `snippet-${index}.mts`), outline]));
  const options = { ...config.options, noEmit: true, declaration: false, declarationMap: false, sourceMap: false, noUnusedLocals: false };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (path) => virtual.has(path) || fileExists.call(host, path);
  host.readFile = (path) => virtual.get(path)?.source ?? readFile.call(host, path);
  host.getSourceFile = (path, language, ...rest) => {
    const outline = virtual.get(path);
    return outline === undefined ? getSourceFile.call(host, path, language, ...rest) : ts.createSourceFile(path, outline.source, language, true);
  };
  const ambient = join(here, 'readme-snippets-ambient.d.ts');
  const program = ts.createProgram({ rootNames: [ambient, ...virtual.keys()], options, host });
  const problems = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const outline = diagnostic.file === undefined ? undefined : virtual.get(diagnostic.file.fileName);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
    if (outline === undefined) {
      problems.push(`${diagnostic.file?.fileName ?? 'tsc'}: ${message}`);
      continue;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    const blockLine = line - outline.preambleLines;
    const where = blockLine >= 0 ? `${outline.where} (block line ${blockLine + 1})` : `${outline.where} (its outline declarations)`;
    problems.push(`${where}: ${message}`);
  }
  return problems;
}

/** Checks every README; returns the problems found (empty: all good) and what was checked. */
export function checkReadmes(paths = readmePaths()) {
  const examples = testedExamples();
  const problems = [];
  const outlines = [];
  let verbatim = 0;
  for (const path of paths) {
    const name = relative(root, path);
    for (const block of codeBlocks(readFileSync(path, 'utf8'))) {
      if (!CODE_LANGUAGES.has(block.language)) continue;
      const where = `${name}:${block.line}`;
      const body = block.body.trim();
      if (block.outline === undefined) {
        if (examples.some(([, text]) => text.includes(body))) verbatim += 1;
        else problems.push(`${where}: a \`\`\`${block.language} block that is neither verbatim from an example a test runs nor marked <!-- outline -->`);
        continue;
      }
      const preamble = block.outline === '' ? '' : `${block.outline}\n`;
      const source = `${preamble}${block.body}\nexport {};\n`;
      outlines.push({ where, source, language: block.language, preambleLines: preamble === '' ? 0 : preamble.split('\n').length - 1 });
    }
  }
  if (outlines.length > 0) problems.push(...typeCheckOutlines(outlines));
  return { problems, verbatim, outlines: outlines.length };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { problems, verbatim, outlines } = checkReadmes();
  // The root README's first screen is the getting-started guide's (pack-check runs the guide).
  problems.push(...readmeProblems());
  if (problems.length > 0) {
    console.error(`README code blocks: ${problems.length} problem(s)\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`README code blocks: ${verbatim} verbatim from tested examples, ${outlines} outlines type-checked`);
}
