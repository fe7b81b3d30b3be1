export function seededShuffle<T>(items: T[], seed: number): T[];
export function splitTrainTest<T>(items: T[], options?: { seed?: number; trainFraction?: number }): { train: T[]; test: T[]; seed: number };
export function splitTrainValidationTest<T>(items: T[], options?: { seed?: number; trainFraction?: number; validationFraction?: number }): { train: T[]; validation: T[]; test: T[]; seed: number };
