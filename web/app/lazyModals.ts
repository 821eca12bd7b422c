import { lazy } from 'react';

/**
 * Modals that one feature owns and other features' pages open: the app layer hands them in.
 * Each loads on first use, so no page carries them until they are opened.
 */
export const AuthModal = lazy(async () => ({ default: (await import('../features/auth/AuthModal.tsx')).AuthModal }));
export const CartModal = lazy(async () => ({ default: (await import('../features/cart/CartModal.tsx')).CartModal }));
export const SubscribeModal = lazy(async () => ({ default: (await import('../features/layout/SubscribeModal.tsx')).SubscribeModal }));
