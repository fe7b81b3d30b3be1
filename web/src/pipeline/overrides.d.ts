import type { PipelineConfig } from './pipeline.js';

/** One override of a config path (null deletes the key); source names it in errors (e.g. a CLI flag). */
export interface ConfigOverride { path: string; value: unknown; source?: string }
/** An override that replaced a value the given config set. */
export interface ConfigOverrideChange { path: string; source: string; from: unknown; to: unknown }
export function applyConfigOverrides(config: string | object | undefined, overrides?: ConfigOverride[]):
  { config: PipelineConfig; raw: Record<string, unknown>; changed: ConfigOverrideChange[] };

/** @internal A copy of config with the value at a dotted path set (null deletes the key). */
export function setConfigPath(config: object, path: string, value: unknown): object;
