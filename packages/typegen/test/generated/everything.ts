// Types of mcp-servers/everything 2.0.0, written by statemcp-typegen from `node node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio`.
// Do not edit: run the command again to update it (it reports what changed).
import type { UriTemplateVariables } from '@statemcp/client';

/** The tools, prompts and resources of mcp-servers/everything 2.0.0: give it to `typedClient<EverythingDefinitions>(client)`. */
export interface EverythingDefinitions {
  tools: {
    /**
     * Echo Tool
     * Echoes back the input string
     */
    echo: { args: EchoArgs; structured: undefined };
    /**
     * Get Annotated Message Tool
     * Demonstrates how annotations can be used to provide metadata about content.
     */
    "get-annotated-message": { args: GetAnnotatedMessageArgs; structured: undefined };
    /**
     * Print Environment Tool
     * Returns all environment variables, helpful for debugging MCP server configuration
     */
    "get-env": { args: GetEnvArgs; structured: undefined };
    /**
     * Get Resource Links Tool
     * Returns up to ten resource links that reference different types of resources
     */
    "get-resource-links": { args: GetResourceLinksArgs; structured: undefined };
    /**
     * Get Resource Reference Tool
     * Returns a resource reference that can be used by MCP clients
     */
    "get-resource-reference": { args: GetResourceReferenceArgs; structured: undefined };
    /**
     * Get Structured Content Tool
     * Returns structured content along with an output schema for client data validation
     */
    "get-structured-content": { args: GetStructuredContentArgs; structured: GetStructuredContentResult };
    /**
     * Get Sum Tool
     * Returns the sum of two numbers
     */
    "get-sum": { args: GetSumArgs; structured: undefined };
    /**
     * Get Tiny Image Tool
     * Returns a tiny MCP logo image.
     */
    "get-tiny-image": { args: GetTinyImageArgs; structured: undefined };
    /**
     * GZip File as Resource Tool
     * Compresses a single file using gzip compression. Depending upon the selected output type, returns either the compressed data as a gzipped resource or a resource link, allowing it to be downloaded in a subsequent request during the current session.
     */
    "gzip-file-as-resource": { args: GzipFileAsResourceArgs; structured: undefined };
    /**
     * Toggle Simulated Logging
     * Toggles simulated, random-leveled logging on or off.
     */
    "toggle-simulated-logging": { args: ToggleSimulatedLoggingArgs; structured: undefined };
    /**
     * Toggle Subscriber Updates
     * Toggles simulated resource subscription updates on or off.
     */
    "toggle-subscriber-updates": { args: ToggleSubscriberUpdatesArgs; structured: undefined };
    /**
     * Trigger Long Running Operation Tool
     * Demonstrates a long running operation with progress updates.
     */
    "trigger-long-running-operation": { args: TriggerLongRunningOperationArgs; structured: undefined };
    /**
     * Simulate Research Query
     * Simulates a deep research operation that gathers, analyzes, and synthesizes information. Demonstrates MCP task-based operations with progress through multiple stages. If 'ambiguous' is true and client supports elicitation, sends an elicitation request for clarification.
     */
    "simulate-research-query": { args: SimulateResearchQueryArgs; structured: undefined };
  };
  prompts: {
    /**
     * Simple Prompt
     * A prompt with no arguments
     */
    "simple-prompt": { args: Record<string, never> };
    /**
     * Arguments Prompt
     * A prompt with two arguments, one required and one optional
     */
    "args-prompt": { args: {
      /** Name of the city */
      city: string;
      state?: string;
    } };
    /**
     * Team Management
     * First argument choice narrows values for second argument.
     */
    "completable-prompt": { args: {
      /** Choose the department. */
      department: string;
      /** Choose a team member to lead the selected department. */
      name: string;
    } };
    /**
     * Resource Prompt
     * A prompt that includes an embedded resource reference
     */
    "resource-prompt": { args: {
      /** Type of resource to fetch */
      resourceType: string;
      /** ID of the text resource to fetch */
      resourceId: string;
    } };
  };
  resources: {
    /** Static document file exposed from /docs: architecture.md */
    "architecture.md": { uriTemplate: "demo://resource/static/document/architecture.md"; variables: Record<string, never> };
    /** Static document file exposed from /docs: extension.md */
    "extension.md": { uriTemplate: "demo://resource/static/document/extension.md"; variables: Record<string, never> };
    /** Static document file exposed from /docs: features.md */
    "features.md": { uriTemplate: "demo://resource/static/document/features.md"; variables: Record<string, never> };
    /** Static document file exposed from /docs: how-it-works.md */
    "how-it-works.md": { uriTemplate: "demo://resource/static/document/how-it-works.md"; variables: Record<string, never> };
    /** Static document file exposed from /docs: instructions.md */
    "instructions.md": { uriTemplate: "demo://resource/static/document/instructions.md"; variables: Record<string, never> };
    /** Static document file exposed from /docs: startup.md */
    "startup.md": { uriTemplate: "demo://resource/static/document/startup.md"; variables: Record<string, never> };
    /** Static document file exposed from /docs: structure.md */
    "structure.md": { uriTemplate: "demo://resource/static/document/structure.md"; variables: Record<string, never> };
    /** Plaintext dynamic resource fabricated from the {resourceId} variable, which must be an integer. */
    "Dynamic Text Resource": { uriTemplate: "demo://resource/dynamic/text/{resourceId}"; variables: UriTemplateVariables<"demo://resource/dynamic/text/{resourceId}"> };
    /** Binary (base64) dynamic resource fabricated from the {resourceId} variable, which must be an integer. */
    "Dynamic Blob Resource": { uriTemplate: "demo://resource/dynamic/blob/{resourceId}"; variables: UriTemplateVariables<"demo://resource/dynamic/blob/{resourceId}"> };
  };
}

export type EchoArgs = {
  /** Message to echo */
  message: string;
};

export type GetAnnotatedMessageArgs = {
  /** Type of message to demonstrate different annotation patterns */
  messageType: "error" | "success" | "debug";
  /**
   * Whether to include an example image
   * @default false
   */
  includeImage?: boolean;
};

export type GetEnvArgs = { [key: string]: unknown };

export type GetResourceLinksArgs = {
  /**
   * Number of resource links to return (1-10)
   * @default 3
   */
  count?: number;
};

export type GetResourceReferenceArgs = {
  /** @default "Text" */
  resourceType?: "Text" | "Blob";
  /**
   * ID of the text resource to fetch
   * @default 1
   */
  resourceId?: number;
};

export type GetStructuredContentArgs = {
  /** Choose city */
  location: "New York" | "Chicago" | "Los Angeles";
};

export type GetStructuredContentResult = {
  /** Temperature in celsius */
  temperature: number;
  /** Weather conditions description */
  conditions: string;
  /** Humidity percentage */
  humidity: number;
};

export type GetSumArgs = {
  /** First number */
  a: number;
  /** Second number */
  b: number;
};

export type GetTinyImageArgs = { [key: string]: unknown };

export type GzipFileAsResourceArgs = {
  /**
   * Name of the output file
   * @default "README.md.gz"
   */
  name?: string;
  /**
   * URL or data URI of the file content to compress
   * @format uri
   * @default "https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md"
   */
  data?: string;
  /**
   * How the resulting gzipped file should be returned. 'resourceLink' returns a link to a resource that can be read later, 'resource' returns a full resource object.
   * @default "resourceLink"
   */
  outputType?: "resourceLink" | "resource";
};

export type ToggleSimulatedLoggingArgs = { [key: string]: unknown };

export type ToggleSubscriberUpdatesArgs = { [key: string]: unknown };

export type TriggerLongRunningOperationArgs = {
  /**
   * Duration of the operation in seconds
   * @default 10
   */
  duration?: number;
  /**
   * Number of steps in the operation
   * @default 5
   */
  steps?: number;
};

export type SimulateResearchQueryArgs = {
  /** The research topic to investigate */
  topic: string;
  /**
   * Simulate an ambiguous query that requires clarification (triggers input_required status)
   * @default false
   */
  ambiguous?: boolean;
};

// statemcp-typegen manifest: {"tools":{"echo":{"input":"469e5fe39f8aca53","output":null},"get-annotated-message":{"input":"f43b7279025b7cc0","output":null},"get-env":{"input":"7a014b717a77aac9","output":null},"get-resource-links":{"input":"f6902c0a723f7f41","output":null},"get-resource-reference":{"input":"2b8561d5917c9815","output":null},"get-structured-content":{"input":"3818e3fec2dd3ae5","output":"c2b0083215a57373"},"get-sum":{"input":"140a7b5bd6582f2e","output":null},"get-tiny-image":{"input":"7a014b717a77aac9","output":null},"gzip-file-as-resource":{"input":"0e511013db9be6f8","output":null},"toggle-simulated-logging":{"input":"7a014b717a77aac9","output":null},"toggle-subscriber-updates":{"input":"7a014b717a77aac9","output":null},"trigger-long-running-operation":{"input":"ad07d741b9596547","output":null},"simulate-research-query":{"input":"dbd971702320465e","output":null}},"prompts":{"simple-prompt":"4f53cda18c2baa0c","args-prompt":"1475efe4064fbfa4","completable-prompt":"6986d8a6b071b9cf","resource-prompt":"1ebd74276e5b3d67"},"resources":{"architecture.md":"fdf02cf2d7ecf711","extension.md":"bf8be216ded77b7c","features.md":"6ba0f90d857011aa","how-it-works.md":"92edc543d0f10d37","instructions.md":"a1244d9aec4d819e","startup.md":"d12046ad1111b953","structure.md":"1a8ba28556369944","Dynamic Text Resource":"0165e1f178833eb1","Dynamic Blob Resource":"a2a620f972fc59b5"}}
