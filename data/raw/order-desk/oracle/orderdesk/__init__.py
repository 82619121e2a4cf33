"""Order desk: a product catalogue with stock, orders that reserve stock, batch ordering."""
