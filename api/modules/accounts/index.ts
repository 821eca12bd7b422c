/** The accounts module as others see it: its routes, creating users, and password hashing for the seed. */
export { default as accountRoutes } from './routes.ts';
export { createUser, type NewUser } from './service.ts';
export { generatePassword, hashPassword, verifyPassword } from './passwords.ts';
