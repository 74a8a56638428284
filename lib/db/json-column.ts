import type { Prisma } from '@/lib/generated/sqlite/client';

/**
 * A deep copy of a plain data value (an agent result part, a trace, a share snapshot) as the input of a Json
 * column. The copy is taken now, so later changes to the value (a trace that keeps growing) do not reach the write.
 * The value's shape is checked where it is built (zod schemas, typed builders); the cast only bridges TypeScript
 * interfaces, which lack the index signature Prisma's InputJsonValue asks for.
 */
export function toJsonColumn<T extends object>(value: T): Prisma.InputJsonValue {
  return structuredClone(value) as Prisma.InputJsonValue;
}
