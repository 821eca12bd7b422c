/**
 * The accounts module as others see it: its routes, creating users, password hashing for the
 * seed, and deleting an account (the composition root hands it to the admin module).
 */
export { default as accountRoutes } from './routes.ts';
export { createUser, deleteAccount, type DeletionHooks, type NewUser } from './service.ts';
export { generatePassword, hashPassword, verifyPassword } from './passwords.ts';
