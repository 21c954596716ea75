import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSkillDigest } from '../extensions/skills.js';
import { customMethodRefusal } from '../session/custom-methods.js';
import { frontmatterDifferences, frontmatterNameProblem, parseSkillMarkdown } from './frontmatter.js';
import { skillDigest } from './digest.js';
import { skillNameProblem } from './skill-name.js';

describe('parseSkillMarkdown', () => {
  it('parses the frontmatter verbatim as JSON and returns the body after it', () => {
    const text = '---\nname: pdf-processing\ndescription: "Extract: fill"\nlicense: MIT\nmetadata:\n  version: "2.1"\n  tags: [a, b]\n---\n# Body\n';
    expect(parseSkillMarkdown(text)).toEqual({
      frontmatter: { name: 'pdf-processing', description: 'Extract: fill', license: 'MIT', metadata: { version: '2.1', tags: ['a', 'b'] } },
      body: '# Body\n',
    });
    expect(parseSkillMarkdown('\ufeff---\r\nname: a\r\ndescription: b\r\n---\r\n').frontmatter).toEqual({ name: 'a', description: 'b' });
  });

  it('refuses a file without frontmatter, invalid YAML, duplicate keys, a list, and a missing name or description', () => {
    expect(() => parseSkillMarkdown('# Title\n')).toThrow(/does not begin with a YAML frontmatter/);
    expect(() => parseSkillMarkdown('---\nname: [a\n---\n')).toThrow(/not valid YAML/);
    expect(() => parseSkillMarkdown('---\nname: a\nname: b\ndescription: c\n---\n')).toThrow(/not valid YAML/);
    expect(() => parseSkillMarkdown('---\n- a\n---\n')).toThrow(/not a YAML mapping/);
    expect(() => parseSkillMarkdown('---\nname: a\n---\n')).toThrow(/"description"/);
    expect(() => parseSkillMarkdown('---\nname: ""\ndescription: d\n---\n')).toThrow(/"name"/);
  });
});

describe('skillNameProblem', () => {
  it('accepts the Agent Skills names and explains every refusal', () => {
    for (const name of ['a', 'pdf-processing', 'v2', 'x'.repeat(64)]) expect(skillNameProblem(name)).toBeUndefined();
    for (const name of ['', 'PDF', '-a', 'a-', 'a--b', 'a_b', 'a.b', 'x'.repeat(65)]) expect(skillNameProblem(name)).toMatch(/naming rules/);
  });

  it('requires the frontmatter name to equal the folder name', () => {
    expect(frontmatterNameProblem({ name: 'one', description: 'd' }, 'two')).toMatch(/differs from the skill's folder name "two"/);
    expect(frontmatterNameProblem({ name: 'one', description: 'd' }, 'one')).toBeUndefined();
  });
});

describe('frontmatterDifferences', () => {
  it('names the fields that differ, ignoring key order', () => {
    expect(frontmatterDifferences({ name: 'a', metadata: { x: 1, y: [1] } }, { metadata: { y: [1], x: 1 }, name: 'a' })).toEqual([]);
    expect(frontmatterDifferences({ name: 'a', description: 'b' }, { name: 'a', description: 'c', license: 'MIT' })).toEqual(['description', 'license']);
  });
});

describe('skillDigest', () => {
  it('is sha256: and the lowercase hex of the bytes', async () => {
    const bytes = new TextEncoder().encode('héllo\n');
    const digest = await skillDigest(bytes);
    expect(digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    expect([isSkillDigest(digest), isSkillDigest(digest.toUpperCase()), isSkillDigest('sha256:abc')]).toEqual([true, false, false]);
  });
});

describe('extension methods', () => {
  it('may be registered although they carry no vendor prefix', () => {
    for (const method of ['skills/list', 'skills/get', 'resources/directory/read']) expect(customMethodRefusal(method)).toBeUndefined();
    expect(customMethodRefusal('resources/directory/list')).toMatch(/namespace/);
  });
});
