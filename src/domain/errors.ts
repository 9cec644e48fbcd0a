// The domain's errors are the shared rules' errors: the console runs the same field rules and reads the same codes.
export * from '@skill-registry/rules/errors';
