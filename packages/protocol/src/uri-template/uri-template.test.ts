import { describe, expect, expectTypeOf, it } from 'vitest';
import { UriTemplate } from './uri-template.js';
import type { UriTemplateVariables } from './uri-template-match.js';

describe('UriTemplate', () => {
  describe('#match', () => {
    it.each([
      ['test://template/{id}/data', 'test://template/123/data', { id: '123' }],
      ['file:///{dir}/{name}.txt', 'file:///docs/readme.txt', { dir: 'docs', name: 'readme' }],
      ['file:///{dir}/{name}.txt', 'file:///docs/my.notes.txt', { dir: 'docs', name: 'my.notes' }],
      ['users://{user}', 'users://a%20b', { user: 'a b' }],
      ['file:///{name}.{ext}', 'file:///a.b.c', { name: 'a.b', ext: 'c' }],
      ['static://plain', 'static://plain', {}],
      // level 2: reserved expansion spans segments, fragments
      ['files://{+path}', 'files://src/lib/index.ts', { path: 'src/lib/index.ts' }],
      ['files://{+path}', 'files://a%20b/c', { path: 'a b/c' }],
      ['doc://{id}{#section}', 'doc://intro#usage', { id: 'intro', section: 'usage' }],
      ['doc://{id}{#section}', 'doc://intro', { id: 'intro' }],
      // level 3: several variables, labels, segments, path parameters, queries
      ['map://{x,y}', 'map://1024,768', { x: '1024', y: '768' }],
      ['map://{x,y}', 'map://1024', { x: '1024' }],
      ['host://www{.dom,tld}', 'host://www.example.com', { dom: 'example', tld: 'com' }],
      ['repo://{owner}{/name,branch}', 'repo://me/tool/main', { owner: 'me', name: 'tool', branch: 'main' }],
      ['repo://{owner}{/name,branch}', 'repo://me/tool', { owner: 'me', name: 'tool' }],
      ['matrix://m{;x,y}', 'matrix://m;y=768;x=1024', { x: '1024', y: '768' }],
      ['matrix://m{;x,empty}', 'matrix://m;empty', { empty: '' }],
      ['search://items{?q,lang}', 'search://items?q=cat&lang=en', { q: 'cat', lang: 'en' }],
      ['search://items{?q,lang}', 'search://items?lang=en&q=a%26b', { q: 'a&b', lang: 'en' }],
      ['search://items{?q,lang}', 'search://items?lang=en&utm=x', { lang: 'en' }],
      ['search://items{?q,lang}', 'search://items', {}],
      ['search://items?fixed=yes{&x}', 'search://items?x=1&fixed=yes', { x: '1' }],
      ['search://items{?q}{&page}', 'search://items?page=2&q=dog', { q: 'dog', page: '2' }],
      // level 4: prefix and explode
      ['short://{code:3}', 'short://abc', { code: 'abc' }],
      ['files://{root}{/path*}', 'files://repo/src/index.ts', { root: 'repo', path: ['src', 'index.ts'] }],
      ['files://{+path}{?rev}', 'files://src/a.ts?rev=2', { path: 'src/a.ts', rev: '2' }],
      ['files://root{/path*}', 'files://root', { path: [] }],
      ['tags://all{?tag*}', 'tags://all?tag=a&tag=b%20c', { tag: ['a', 'b c'] }],
      ['tags://all{?tag*}', 'tags://all', { tag: [] }],
      ['list://{items*}', 'list://red,green,blue', { items: ['red', 'green', 'blue'] }],
      ['list://x{.parts*}', 'list://x.tar.gz', { parts: ['tar', 'gz'] }],
      ['matrix://m{;list*}', 'matrix://m;list=red;list=green', { list: ['red', 'green'] }],
      ['repo://{owner}{/rest*}{?rev}#top', 'repo://me/a/b?rev=2#top', { owner: 'me', rest: ['a', 'b'], rev: '2' }],
      ['café://{id}', 'caf%C3%A9://7', { id: '7' }],
      ['café://{id}', 'café://7', { id: '7' }],
    ])('matches %s against %s', (template, uri, expected) => {
      expect(UriTemplate.forMatching(template).match(uri)).toEqual(expected);
    });

    it.each([
      ['test://template/{id}/data', 'test://template/1/2/data'],
      ['test://template/{id}/data', 'test://template//data'],
      ['test://template/{id}/data', 'test://template/1/data?x=1'],
      ['test://a.b/{id}', 'test://aXb/1'],
      ['users://{user}', 'users://%E0%A4%A'],
      ['short://{code:3}', 'short://abcd'],
      ['map://{x,y}', 'map://1,2,3'],
      ['repo://{owner}{/name,branch}', 'repo://me/a/b/c'],
      ['matrix://m{;x}', 'matrix://m;z=1'],
      ['matrix://m{;x}', 'matrix://m;x=1;x=2'],
      ['search://items{?q}', 'search://items?q=a&q=b'],
      ['search://items?fixed=yes{&x}', 'search://items?x=1'],
      ['search://items?fixed=yes{&x}', 'search://items?fixed=no&x=1'],
      ['doc://{id}', 'doc://intro#usage'],
    ])('does not match %s against %s', (template, uri) => {
      expect(UriTemplate.forMatching(template).match(uri)).toBeUndefined();
    });

    it.each([
      ['{var}', { var: 'value' }],
      ['{+path}/here', { path: '/foo/bar' }],
      ['X{#hello}', { hello: 'Hello World!' }],
      ['{x,hello,y}', { x: '1024', hello: 'Hello World!', y: '768' }],
      ['X{.x,y}', { x: '1024', y: '768' }],
      ['{/var,x}/here', { var: 'value', x: '1024' }],
      ['{;x,y,empty}', { x: '1024', y: '768', empty: '' }],
      ['{?x,y,empty}', { x: '1024', y: '768', empty: '' }],
      ['?fixed=yes{&x}', { x: '1024' }],
      ['{/list*}', { list: ['red', 'green', 'blue'] }],
      ['{?list*}', { list: ['red', 'green', 'blue'] }],
      ['www{.dom*}', { dom: ['example', 'com'] }],
      ['{/who,dub}', { who: 'fred', dub: 'me/too' }],
    ])('matches what it expands: %s', (text, variables) => {
      const template = UriTemplate.forMatching(text);
      expect(template.match(template.expand(variables))).toEqual(variables);
    });
  });

  describe('.forMatching', () => {
    it.each([
      ['test://{a}/{a}', /appears twice/],
      ['test://{a}{b}', /nothing tells where \{a\} ends/],
      ['test://{a}{+b}', /nothing tells where/],
      ['test://{name}{.ext}', /may contain "\."/],
      ['test://{+path}{/file}', /may contain "\/"/],
      ['test://x{/a}{/b}', /either may be absent/],
      ['test://{/list*,path}', /must be the last variable/],
      ['map?{x,y}', /only \{\?…\} and \{&…\} expressions/],
      ['test://x?ref={+path}', /only \{\?…\} and \{&…\} expressions/],
      ['test://x{?q}{/seg}', /only \{\?…\} and \{&…\} expressions/],
      ['test://x{#frag}{/seg}', /only literal text may follow the fragment/],
      ['test://x#top{/seg}', /only literal text may follow the fragment/],
      ['test://x?q=1{&q}', /also a fixed parameter/],
    ])('refuses %s', (template, reason) => {
      expect(() => UriTemplate.forMatching(template)).toThrow(reason);
      expect(() => new UriTemplate(template).match('test://x')).toThrow(TypeError);
    });

    it('still expands a template it cannot match', () => {
      expect(new UriTemplate('up{+path}{var}/here').expand({ path: '/foo/bar', var: 'value' })).toBe('up/foo/barvalue/here');
    });
  });

  describe('constructor', () => {
    it.each(['test://{a', 'test://a}', 'test://{}', 'test://{=a}', 'test://{!a}', 'test://{a b}', 'test://{a:0}', 'test://{a:10000}', 'test://{a*:3}', 'test://a b/{x}', 'test://50%/{x}'])(
      'refuses %s',
      (template) => {
        expect(() => new UriTemplate(template)).toThrow(TypeError);
      },
    );

    it('lists variable names in order of first appearance', () => {
      expect(new UriTemplate('t://{a}/{b_2}{?c,a}').variableNames).toEqual(['a', 'b_2', 'c']);
      expect(new UriTemplate('t://plain').isLiteral).toBe(true);
    });
  });

  describe('#expand', () => {
    it('pct-encodes non-ASCII literals and values, numbers and booleans included', () => {
      expect(new UriTemplate('café://{a}/{b}{?c}').expand({ a: 'ü', b: 42, c: true })).toBe('caf%C3%A9://%C3%BC/42?c=true');
    });

    it('keeps pct-encoded triplets in reserved expansion and counts them as one character in a prefix', () => {
      expect(new UriTemplate('{+a}|{+a:2}'.replace('|', '/')).expand({ a: '%41bc' })).toBe('%41bc/%41b');
    });
  });

  describe('UriTemplateVariables', () => {
    it('types what a match yields from the template text', () => {
      expectTypeOf<UriTemplateVariables<'files://{root}{/path*}{?rev,format}'>>().toEqualTypeOf<{ root: string; path: string[]; rev?: string; format?: string }>();
      expectTypeOf<UriTemplateVariables<'test://template/{id}/data'>>().toEqualTypeOf<{ id: string }>();
      expectTypeOf<UriTemplateVariables<'m://{x,y}{.z:3}'>>().toEqualTypeOf<{ x?: string; y?: string; z?: string }>();
      expectTypeOf<UriTemplateVariables<string>>().toEqualTypeOf<{ [name: string]: string | string[] }>();
    });
  });
});
