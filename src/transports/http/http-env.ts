import type { Principal } from "../../core/principal.js";

/** Per-request values set by middleware. */
export interface HttpEnv {
  Variables: {
    principal: Principal;
  };
}
