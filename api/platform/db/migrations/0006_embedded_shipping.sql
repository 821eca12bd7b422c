-- The embedded payment page collects the shipping address, as Stripe Checkout does: the name
-- and street address the buyer gave when paying, in Stripe's shape
-- ({ name, address: { line1, line2, city, state, postal_code, country } }), sent on with the
-- checkout.session.completed event.
ALTER TABLE embedded_payment_sessions ADD COLUMN shipping_details jsonb;
