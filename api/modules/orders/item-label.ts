/** How an order item is named to the buyer (payment page, confirmation email): the product and the options chosen. */
export function itemLabel(item: { product_name: string; colour: string; handle_colour: string | null; size: string }): string {
  const options = [item.colour, item.handle_colour ? `${item.handle_colour} handle` : null, item.size === 'One size' ? null : item.size].filter(Boolean);
  return `${item.product_name} (${options.join(', ')})`;
}
