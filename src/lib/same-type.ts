/**
 * True exactly when A and B are one type. Written `true satisfies Same<A, B>`, it makes the compiler check that two
 * declarations kept apart on purpose (a layer's own type and the column type it is stored in) still agree.
 */
// The two generic signatures are the point: they compare A and B exactly, without distributing over unions.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
