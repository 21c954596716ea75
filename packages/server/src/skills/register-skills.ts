/**
 * Publishing skills on an `McpServer` (skills extension, SEP-2640): the extension declared
 * under `capabilities.extensions` (with `directoryRead` when enabled), `skills/list`
 * (paginated) and `skills/get` answering entries built from the bytes served, every file a
 * `skill://` resource (listed, read as text or blob with its MIME type) through one resource
 * template, and `resources/directory/read` when enabled. Results carry `resultType` and the
 * caching hints from 2026-07-28 on; the legacy revisions get the same methods without them.
 */
import { ErrorCode, JsonRpcError, SKILLS_EXTENSION_ID, type JsonObject, type Resource } from '@statemcp/protocol';
import { SKILL_FILE_NAME, SKILLS_METHODS } from '@statemcp/protocol/internal';
import { parseSkillMarkdown } from '@statemcp/protocol/skills';
import { completeResult, LazyViewer, paginate, visibilityRule } from '@statemcp/server/internal';
import type { CacheHints } from '../caching.js';
import type { McpServer } from '../mcp-server.js';
import { SkillCatalog, SkillDefinitionError, type SkillLimits, type SkillSource } from './skill-catalog.js';
import { skillsFromDirectory } from './skill-directory.js';
import { fileContents } from './skill-files.js';
import type { Visibility } from '../visibility.js';

/** A skill built in code: its files by relative path (`SKILL.md` required). */
export interface SkillDefinition {
  /** Where the skill sits (`git-workflow`, `acme/billing/refunds`); default: the frontmatter `name`. */
  readonly path?: string;
  /** The files, text (stored as UTF-8) or bytes. */
  readonly files: Readonly<Record<string, string | Uint8Array>>;
}

/**
 * `registerSkills` options: where the skills come from, what the server offers, and who sees the
 * skills (`requiredScopes`, `visible`): anyone else gets an empty `skills/list`, the errors of
 * a skill or directory that does not exist, and no `skill://` resources.
 */
export interface RegisterSkillsOptions extends Visibility {
  /** A folder whose subfolders holding a `SKILL.md` are the skills (Node file system; re-read on every request). */
  readonly directory?: string;
  /** Skills built in code (beside or instead of `directory`). */
  readonly skills?: readonly SkillDefinition[];
  /** Answer `resources/directory/read` and declare `directoryRead: true` (default true). */
  readonly directoryRead?: boolean;
  /** Entries per `skills/list` page (default 50). */
  readonly pageSize?: number;
  /** Caching hints of the skills results and file reads (2026-07-28+; default: the server's). */
  readonly cache?: CacheHints;
  /** Per-skill limits (default: 512 files, 16 MiB). */
  readonly limits?: SkillLimits;
}

/** What `registerSkills` published. */
export interface RegisteredSkills {
  /** The `SKILL.md` URIs of the skills, sorted. */
  readonly uris: readonly string[];
}

const REGISTERED = new WeakSet<McpServer>();
const ENCODER = new TextEncoder();

function codeSource(definition: SkillDefinition): SkillSource {
  const files = new Map(Object.entries(definition.files).map(([path, content]) => [path, typeof content === 'string' ? ENCODER.encode(content) : content.slice()] as const));
  let path = definition.path;
  if (path === undefined) {
    const skillMd = files.get(SKILL_FILE_NAME);
    if (skillMd === undefined) throw new SkillDefinitionError(`a skill built in code has no ${SKILL_FILE_NAME}`);
    try {
      path = parseSkillMarkdown(new TextDecoder().decode(skillMd)).frontmatter.name;
    } catch (error) {
      throw new SkillDefinitionError(`a skill built in code: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return { path, read: () => Promise.resolve(files) };
}

/**
 * Publishes skills on `server`: from a folder (`directory`), built in code (`skills`), or both.
 * Every skill is checked now — a `SKILL.md` with YAML frontmatter `name` and `description`,
 * the name valid under the Agent Skills rules and equal to the folder name, no symbolic links,
 * no path leaving the skill, within the limits — and the first problem is thrown as a
 * `SkillDefinitionError` naming the skill and the rule. Call once per server.
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'docs', version: '1.0.0' });
 * await registerSkills(server, { directory: new URL('./skills', import.meta.url).pathname });
 * ```
 */
export async function registerSkills(server: McpServer, options: RegisterSkillsOptions): Promise<RegisteredSkills> {
  if (REGISTERED.has(server)) throw new SkillDefinitionError('registerSkills was already called on this server; pass every skill in one call');
  const sources = [...(options.directory === undefined ? [] : await skillsFromDirectory(options.directory)), ...(options.skills ?? []).map(codeSource)];
  if (sources.length === 0) throw new SkillDefinitionError('registerSkills needs a directory or skills');
  const catalog = new SkillCatalog(sources, options.limits);
  await catalog.validate();
  REGISTERED.add(server);
  const directoryRead = options.directoryRead ?? true;
  const pageSize = options.pageSize ?? 50;
  const hints = options.cache ?? {};
  server.declareExtension(SKILLS_EXTENSION_ID, directoryRead ? { directoryRead: true } : {});
  const rule = visibilityRule(options);
  const hidden = (context: { readonly authInfo: unknown }): boolean => !new LazyViewer(context.authInfo).allows(rule);

  server.registerResourceTemplate(
    'skill-files',
    'skill://{+path}',
    {
      description: 'The files of the skills this server publishes (skills extension)',
      ...(options.cache === undefined ? {} : { cache: options.cache }),
      ...(options.requiredScopes === undefined ? {} : { requiredScopes: options.requiredScopes }),
      ...(options.visible === undefined ? {} : { visible: options.visible }),
      list: async () => {
        const resources: Resource[] = [];
        for (const snapshot of await catalog.snapshots()) {
          for (const file of snapshot.files.values()) {
            const isSkillMd = file.path === SKILL_FILE_NAME;
            resources.push({
              uri: file.uri,
              name: isSkillMd ? snapshot.entry.frontmatter.name : file.path,
              ...(isSkillMd ? { description: snapshot.entry.frontmatter.description } : {}),
              mimeType: file.mimeType,
              size: file.bytes.byteLength,
            });
          }
        }
        return resources;
      },
    },
    async (uri) => {
      const file = await catalog.file(uri);
      if (file === undefined) throw new JsonRpcError(ErrorCode.InvalidParams, `No skill file is served at ${uri}`, { uri });
      return { contents: [fileContents(file.uri, file.mimeType, file.bytes)] };
    },
  );

  server.method(SKILLS_METHODS.list, { optIn: false }, async (params, context) => {
    const entries = hidden(context) ? [] : (await catalog.snapshots()).map((snapshot) => snapshot.entry);
    const page = paginate(entries, typeof params.cursor === 'string' ? params.cursor : undefined, pageSize, 0);
    const result: JsonObject = { skills: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return completeResult(result, context.protocolVersion, hints);
  });

  server.method(SKILLS_METHODS.get, { optIn: false }, async (params, context) => {
    if (typeof params.uri !== 'string') throw new JsonRpcError(ErrorCode.InvalidParams, 'skills/get needs params.uri, the URI of a SKILL.md');
    if (hidden(context)) throw new JsonRpcError(ErrorCode.InvalidParams, `No skill is served at ${params.uri}`, { uri: params.uri });
    const snapshot = await catalog.skill(params.uri);
    return completeResult({ skill: snapshot.entry }, context.protocolVersion, hints);
  });

  if (directoryRead) {
    server.method(SKILLS_METHODS.directoryRead, { optIn: false }, async (params, context) => {
      if (typeof params.uri !== 'string') throw new JsonRpcError(ErrorCode.InvalidParams, 'resources/directory/read needs params.uri');
      const directory = params.uri.replace(/\/+$/, '');
      if (hidden(context)) throw new JsonRpcError(ErrorCode.InvalidParams, `No directory is served at ${directory}`, { uri: directory });
      const children = await catalog.directory(directory);
      const page = paginate(children, typeof params.cursor === 'string' ? params.cursor : undefined, pageSize, 0);
      const result: JsonObject = { resources: page.items };
      if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
      return completeResult(result, context.protocolVersion);
    });
  }
  return { uris: catalog.paths.map((path) => `skill://${path}/${SKILL_FILE_NAME}`) };
}
