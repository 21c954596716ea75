// Types of schema-cases 1.0.0, written by statemcp-typegen.
// Do not edit: run the command again to update it (it reports what changed).
import type { UriTemplateVariables } from '@statemcp/client';

/** The tools, prompts and resources of schema-cases 1.0.0: give it to `typedClient<SchemaCases>(client)`. */
export interface SchemaCases {
  tools: {
    json_schema_2020_12_tool: { args: JsonSchema202012ToolArgs; structured: undefined };
    /** References: $defs, nested $defs, an $anchor, a JSON Pointer into properties, recursion, a reference outside the document. */
    refs: { args: RefsArgs; structured: undefined };
    unions: { args: UnionsArgs; structured: undefined };
    enums: { args: EnumsArgs; structured: undefined };
    nullable: { args: NullableArgs; structured: undefined };
    shapes: { args: ShapesArgs; structured: ShapesResult };
  };
  prompts: {
    /** Greets someone */
    greet: { args: {
      /** Who to greet */
      name: string;
      style?: string;
    } };
  };
  resources: {
    readme: { uriTemplate: "docs://readme"; variables: Record<string, never> };
    file: { uriTemplate: "files://{root}{/path*}{?rev}"; variables: UriTemplateVariables<"files://{root}{/path*}{?rev}"> };
  };
}

export type JsonSchema202012ToolArgs = {
  name?: string;
  address?: JsonSchema202012ToolArgsAddress;
  contactMethod?: "phone" | "email";
  phone?: string;
  email?: string;
} & ({
  phone: unknown;
} | {
  email: unknown;
});

export type JsonSchema202012ToolArgsAddress = {
  street?: string;
  city?: string;
};

export type RefsArgs = {
  tree: RefsArgsTree;
  outer?: RefsArgsOuter;
  odd?: RefsArgsOddName;
  escaped?: RefsArgsOddName;
  sameAsTree?: RefsArgsTree;
  self?: RefsArgs;
  remote?: unknown;
};

export type RefsArgsTree = {
  label: string;
  children?: RefsArgsTree[];
};

export type RefsArgsOuter = {
  value?: RefsArgsInner;
};

export type RefsArgsOddName = boolean;

export type RefsArgsInner = number;

export type UnionsArgs = {
  either?: string | number;
  exactlyOne: {
    kind: "a";
    a: string;
  } | {
    kind: "b";
    b: number;
  };
  both?: {
    x: number;
  } & {
    y: number;
  };
  several?: string | number | boolean;
};

export type EnumsArgs = {
  level?: "debug" | "info" | 3 | true | null;
  fixed?: "v1";
  /**
   * An instant (RFC 3339)
   * @format date-time
   */
  when?: string;
  /** @format uri */
  site?: string;
  /** Ends a comment *\/ early */
  comment?: string;
  /** @deprecated */
  old?: string;
};

export type NullableArgs = {
  list: string[] | null;
  openApi?: number | null;
  /** @default null */
  pydantic?: string | null;
};

export type ShapesArgs = {
  pair?: [string, number];
  head?: [string, ...boolean[]];
  draft7Tuple?: [string, number];
  map?: { [key: string]: number };
  patterned?: { [key: string]: string };
  open?: {
    id: string;
  } & { [key: string]: unknown };
  closedEmpty?: Record<string, never>;
  anything?: unknown;
  nothing?: never;
  "quoted-key": string;
};

export type ShapesResult = {
  points: ShapesResultPoint[];
};

export type ShapesResultPoint = {
  x: number;
  y: number;
};

// statemcp-typegen manifest: {"tools":{"json_schema_2020_12_tool":{"input":"67ce73fa5ae24682","output":null},"refs":{"input":"12c4fb3211e4718d","output":null},"unions":{"input":"2c7c511d18ce1d46","output":null},"enums":{"input":"28f9cdd20d0ca206","output":null},"nullable":{"input":"4c1ea39c002884f8","output":null},"shapes":{"input":"33fb5b00e9f6b807","output":"99e58681d8b4dfaa"}},"prompts":{"greet":"141f627402857b04"},"resources":{"readme":"948fdbd0033f20f2","file":"84bad2cd9b589fca"}}
