/**
 * Setup file of the default run (unit and integration projects): every
 * fast-check property draws its cases from one fixed seed, so a run repeats
 * exactly. `FC_SEED=<n>` explores another seed; fast-check prints the seed
 * and path of any counterexample it finds.
 */
import fc from "fast-check";

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 1) });
