/**
 * How many tools a description is offered as, one per operation, before it is offered as a catalog
 * (`find_operations`, `call_operation`). Its own module so the reading entry (the generator) knows it
 * without loading the runtime.
 */
export const DEFAULT_MAX_TOOLS = 40;
