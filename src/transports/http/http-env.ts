import type { Principal } from "../../access/principal.js";

/** Per-request values set by middleware. */
export interface HttpEnv {
  Variables: {
    principal: Principal;
  };
}
