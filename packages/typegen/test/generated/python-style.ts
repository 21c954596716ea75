// Types of python-style-shop 1.1.0, written by statemcp-typegen from `node test/fixtures/python-style-server.mjs`.
// Do not edit: run the command again to update it (it reports what changed).
import type { UriTemplateVariables } from '@statemcp/client';

/** The tools, prompts and resources of python-style-shop 1.1.0: give it to `typedClient<ShopDefinitions>(client)`. */
export interface ShopDefinitions {
  tools: {
    /** Places an order. */
    place_order: { args: PlaceOrderArgs; structured: PlaceOrderResult };
    /** Declares an output schema and breaks it. */
    broken_output: { args: BrokenOutputArgs; structured: BrokenOutputResult };
    /** Looks a code up. */
    legacy_lookup: { args: LegacyLookupArgs; structured: undefined };
  };
  prompts: {
    /** Summarizes an order. */
    summarize: { args: {
      order_id: string;
      tone?: string;
    } };
  };
  resources: {
    catalog: { uriTemplate: "shop://catalog"; variables: Record<string, never> };
    order: { uriTemplate: "shop://orders/{order_id}{?lines}"; variables: UriTemplateVariables<"shop://orders/{order_id}{?lines}"> };
  };
}

/** place_orderArguments */
export type PlaceOrderArgs = {
  /** Items */
  items: PlaceOrderArgsItem[];
  shipping: PlaceOrderArgsAddress;
  /**
   * Note
   * @default null
   */
  note?: string | null;
  /**
   * Deliver By
   * @format date
   */
  deliver_by?: string;
};

/** Address */
export type PlaceOrderArgsAddress = {
  /** Street */
  street: string;
  /** City */
  city: string;
  /** @default "FR" */
  country?: PlaceOrderArgsCountry;
};

/** Country */
export type PlaceOrderArgsCountry = "FR" | "DE" | "US";

/** Item */
export type PlaceOrderArgsItem = {
  /** Sku */
  sku: string;
  /**
   * Quantity
   * @default 1
   */
  quantity?: number;
  /**
   * An item given with this one
   * @default null
   */
  gift?: PlaceOrderArgsItem | null;
};

/** OrderResult */
export type PlaceOrderResult = {
  /** Order Id */
  order_id: string;
  /** Lines */
  lines: PlaceOrderResultLine[];
  /** Status */
  status: "accepted" | "backordered";
  /** Total */
  total: number | null;
};

/** Line */
export type PlaceOrderResultLine = {
  /** Sku */
  sku: string;
  /** Price */
  price: number;
};

/** broken_outputArguments */
export type BrokenOutputArgs = { [key: string]: unknown };

/** Count */
export type BrokenOutputResult = {
  /** Count */
  count: number;
};

/** legacy_lookupArguments */
export type LegacyLookupArgs = {
  /** Code */
  code: string;
};

// statemcp-typegen manifest: {"tools":{"place_order":{"input":"a740de03583ee5f1","output":"4846ed5339ef95a6"},"broken_output":{"input":"b0639edf1bda426b","output":"748cd5afcf4ea4dc"},"legacy_lookup":{"input":"df2ef83575bf05b7","output":null}},"prompts":{"summarize":"6e455389baacb53e"},"resources":{"catalog":"81696590981ebb9d","order":"1cbb8c8b6f999278"}}
