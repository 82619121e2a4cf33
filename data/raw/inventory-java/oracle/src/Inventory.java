package inventory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** In-memory inventory: items and their stock movements. All methods are synchronized. */
final class Inventory {
    private static final Pattern SKU = Pattern.compile("^[A-Z0-9][A-Z0-9-]{2,31}$");
    private static final long MAX_QUANTITY = 1_000_000L;
    private static final double MAX_PRICE = 1_000_000.0;

    private static final class Item {
        long id;
        String sku;
        String name;
        String category;
        long quantity;
        double unitPrice;
        long reorderLevel;
        String createdAt;
        String updatedAt;
        final List<Map<String, Object>> movements = new ArrayList<>();
    }

    private final Map<Long, Item> items = new TreeMap<>();
    private long nextItemId = 1;
    private long nextMovementId = 1;

    static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    synchronized int count() {
        return items.size();
    }

    synchronized List<Map<String, Object>> list(String category, Boolean lowStock) {
        List<Map<String, Object>> result = new ArrayList<>();
        for (Item item : items.values()) {
            if (category != null && !item.category.equalsIgnoreCase(category)) {
                continue;
            }
            if (lowStock != null && isLow(item) != lowStock) {
                continue;
            }
            result.add(view(item));
        }
        return result;
    }

    synchronized Map<String, Object> get(long id) throws ApiException {
        return view(find(id));
    }

    synchronized Map<String, Object> create(Map<String, Object> body) throws ApiException {
        Map<String, String> errors = new LinkedHashMap<>();
        String sku = requiredString(body, "sku", 32, errors);
        if (sku != null) {
            sku = sku.toUpperCase();
            if (!SKU.matcher(sku).matches()) {
                errors.put("sku", "3-32 characters: letters, digits and '-'");
            }
        }
        String name = requiredString(body, "name", 120, errors);
        String category = requiredString(body, "category", 60, errors);
        Double price = price(body, errors);
        long quantity = optionalCount(body, "quantity", 0, errors);
        long reorder = optionalCount(body, "reorder_level", 0, errors);
        if (!errors.isEmpty()) {
            throw new ApiException(422, "validation_error", "Invalid item", errors);
        }
        for (Item other : items.values()) {
            if (other.sku.equals(sku)) {
                throw new ApiException(409, "duplicate_sku", "An item with SKU " + sku + " exists");
            }
        }
        Item item = new Item();
        item.id = nextItemId++;
        item.sku = sku;
        item.name = name;
        item.category = category;
        item.unitPrice = price;
        item.quantity = quantity;
        item.reorderLevel = reorder;
        item.createdAt = now();
        item.updatedAt = item.createdAt;
        items.put(item.id, item);
        return view(item);
    }

    synchronized Map<String, Object> update(long id, Map<String, Object> body) throws ApiException {
        Item item = find(id);
        Map<String, String> errors = new LinkedHashMap<>();
        if (body.containsKey("sku") || body.containsKey("quantity")) {
            errors.put(body.containsKey("sku") ? "sku" : "quantity",
                    "read-only; use stock movements to change quantity");
        }
        String name = requiredString(body, "name", 120, errors);
        String category = requiredString(body, "category", 60, errors);
        Double price = price(body, errors);
        long reorder = optionalCount(body, "reorder_level", 0, errors);
        if (!errors.isEmpty()) {
            throw new ApiException(422, "validation_error", "Invalid item", errors);
        }
        item.name = name;
        item.category = category;
        item.unitPrice = price;
        item.reorderLevel = reorder;
        item.updatedAt = now();
        return view(item);
    }

    synchronized void delete(long id) throws ApiException {
        Item item = find(id);
        if (item.quantity > 0) {
            throw new ApiException(409, "item_has_stock",
                    "Item " + id + " still has " + item.quantity + " units in stock");
        }
        items.remove(id);
    }

    synchronized Map<String, Object> addMovement(long id, Map<String, Object> body)
            throws ApiException {
        Item item = find(id);
        Map<String, String> errors = new LinkedHashMap<>();
        Object type = body.get("type");
        if (!"in".equals(type) && !"out".equals(type)) {
            errors.put("type", "must be \"in\" or \"out\"");
        }
        Object rawQuantity = body.get("quantity");
        long quantity = 0;
        if (!(rawQuantity instanceof Long) || (Long) rawQuantity < 1
                || (Long) rawQuantity > MAX_QUANTITY) {
            errors.put("quantity", "integer between 1 and " + MAX_QUANTITY);
        } else {
            quantity = (Long) rawQuantity;
        }
        Object note = body.get("note");
        if (note != null && (!(note instanceof String) || ((String) note).length() > 200)) {
            errors.put("note", "string of at most 200 characters");
        }
        if (!errors.isEmpty()) {
            throw new ApiException(422, "validation_error", "Invalid stock movement", errors);
        }
        long balance = "in".equals(type) ? item.quantity + quantity : item.quantity - quantity;
        if (balance < 0) {
            throw new ApiException(409, "insufficient_stock", "Only " + item.quantity
                    + " units of item " + id + " in stock");
        }
        if (balance > MAX_QUANTITY) {
            throw new ApiException(409, "capacity_exceeded",
                    "Stock of an item cannot exceed " + MAX_QUANTITY + " units");
        }
        item.quantity = balance;
        item.updatedAt = now();
        Map<String, Object> movement = new LinkedHashMap<>();
        movement.put("id", nextMovementId++);
        movement.put("item_id", item.id);
        movement.put("type", type);
        movement.put("quantity", quantity);
        movement.put("note", note);
        movement.put("balance_after", balance);
        movement.put("created_at", item.updatedAt);
        item.movements.add(movement);
        return movement;
    }

    synchronized List<Map<String, Object>> movements(long id) throws ApiException {
        return new ArrayList<>(find(id).movements);
    }

    synchronized Map<String, Object> valuation() {
        double total = 0;
        long units = 0;
        Map<String, Double> byCategory = new TreeMap<>();
        for (Item item : items.values()) {
            double value = item.quantity * item.unitPrice;
            total += value;
            units += item.quantity;
            byCategory.merge(item.category.toLowerCase(), value, Double::sum);
        }
        Map<String, Object> categories = new LinkedHashMap<>();
        byCategory.forEach((k, v) -> categories.put(k, round(v)));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("items", items.size());
        result.put("units", units);
        result.put("total_value", round(total));
        result.put("by_category", categories);
        return result;
    }

    private Item find(long id) throws ApiException {
        Item item = items.get(id);
        if (item == null) {
            throw new ApiException(404, "not_found", "Item " + id + " not found");
        }
        return item;
    }

    private static boolean isLow(Item item) {
        return item.quantity <= item.reorderLevel;
    }

    private static double round(double value) {
        return Math.round(value * 100.0) / 100.0;
    }

    private static Map<String, Object> view(Item item) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", item.id);
        out.put("sku", item.sku);
        out.put("name", item.name);
        out.put("category", item.category);
        out.put("quantity", item.quantity);
        out.put("unit_price", item.unitPrice);
        out.put("reorder_level", item.reorderLevel);
        out.put("low_stock", isLow(item));
        out.put("created_at", item.createdAt);
        out.put("updated_at", item.updatedAt);
        return out;
    }

    private static String requiredString(Map<String, Object> body, String key, int max,
                                         Map<String, String> errors) {
        Object value = body.get(key);
        if (!(value instanceof String) || ((String) value).trim().isEmpty()) {
            errors.put(key, "required, non-empty string");
            return null;
        }
        String trimmed = ((String) value).trim();
        if (trimmed.length() > max) {
            errors.put(key, "at most " + max + " characters");
            return null;
        }
        return trimmed;
    }

    private static Double price(Map<String, Object> body, Map<String, String> errors) {
        Object value = body.get("unit_price");
        if (!(value instanceof Long) && !(value instanceof Double)) {
            errors.put("unit_price", "required number between 0 and " + (long) MAX_PRICE);
            return null;
        }
        double price = ((Number) value).doubleValue();
        if (price < 0 || price > MAX_PRICE || Double.isNaN(price)) {
            errors.put("unit_price", "required number between 0 and " + (long) MAX_PRICE);
            return null;
        }
        return round(price);
    }

    private static long optionalCount(Map<String, Object> body, String key, long fallback,
                                      Map<String, String> errors) {
        if (!body.containsKey(key)) {
            return fallback;
        }
        Object value = body.get(key);
        if (!(value instanceof Long) || (Long) value < 0 || (Long) value > MAX_QUANTITY) {
            errors.put(key, "integer between 0 and " + MAX_QUANTITY);
            return fallback;
        }
        return (Long) value;
    }
}
