package inventory;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** HTTP front end of the inventory service (JDK built-in server only). */
public final class InventoryServer {
    private static final Pattern ITEM = Pattern.compile("^/items/(\\d{1,18})$");
    private static final Pattern MOVEMENTS = Pattern.compile("^/items/(\\d{1,18})/stock-movements$");

    private final Inventory inventory = new Inventory();

    /** A routed response: status code plus an optional JSON body. */
    private static final class Reply {
        final int status;
        final Object body;

        Reply(int status, Object body) {
            this.status = status;
            this.body = body;
        }
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "8104"));
        HttpServer server = HttpServer.create(new InetSocketAddress("0.0.0.0", port), 64);
        InventoryServer app = new InventoryServer();
        server.createContext("/", app::handle);
        server.setExecutor(Executors.newFixedThreadPool(8));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            removeBuildDir(System.getProperty("inventory.buildDir"));
        }));
        server.start();
        System.out.println("inventory service listening on 0.0.0.0:" + port);
    }

    /** Deletes the temporary folder start.sh compiled the classes into (if given). */
    private static void removeBuildDir(String dir) {
        if (dir == null || dir.isEmpty()) {
            return;
        }
        try (java.util.stream.Stream<java.nio.file.Path> paths =
                     java.nio.file.Files.walk(java.nio.file.Paths.get(dir))) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // best effort: the folder lives under the temp directory anyway
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        Reply reply;
        try {
            reply = route(exchange);
        } catch (ApiException e) {
            reply = new Reply(e.status, e.body());
        } catch (RuntimeException e) {
            reply = new Reply(500, new ApiException(500, "internal_error", "Unexpected error").body());
        }
        send(exchange, reply);
    }

    private Reply route(HttpExchange exchange) throws ApiException, IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        Map<String, String> query = parseQuery(exchange.getRequestURI().getRawQuery());

        if (path.equals("/health")) {
            requireMethod(method, "GET");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", "ok");
            body.put("items", inventory.count());
            return new Reply(200, body);
        }
        if (path.equals("/inventory-value")) {
            requireMethod(method, "GET");
            return new Reply(200, inventory.valuation());
        }
        if (path.equals("/items")) {
            if (method.equals("GET")) {
                Boolean low = null;
                String rawLow = query.get("low_stock");
                if (rawLow != null) {
                    if (!rawLow.equals("true") && !rawLow.equals("false")) {
                        throw new ApiException(400, "invalid_parameter",
                                "'low_stock' must be 'true' or 'false'");
                    }
                    low = Boolean.valueOf(rawLow);
                }
                List<Map<String, Object>> items = inventory.list(query.get("category"), low);
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("items", items);
                body.put("total", items.size());
                return new Reply(200, body);
            }
            requireMethod(method, "GET", "POST");
            return new Reply(201, inventory.create(readObject(exchange)));
        }
        Matcher m = ITEM.matcher(path);
        if (m.matches()) {
            long id = Long.parseLong(m.group(1));
            switch (method) {
                case "GET":
                    return new Reply(200, inventory.get(id));
                case "PUT":
                    return new Reply(200, inventory.update(id, readObject(exchange)));
                case "DELETE":
                    inventory.delete(id);
                    return new Reply(204, null);
                default:
                    requireMethod(method, "GET", "PUT", "DELETE");
            }
        }
        m = MOVEMENTS.matcher(path);
        if (m.matches()) {
            long id = Long.parseLong(m.group(1));
            if (method.equals("GET")) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("item_id", id);
                body.put("movements", inventory.movements(id));
                return new Reply(200, body);
            }
            requireMethod(method, "GET", "POST");
            return new Reply(201, inventory.addMovement(id, readObject(exchange)));
        }
        throw new ApiException(404, "not_found", "No resource at " + path);
    }

    private static void requireMethod(String method, String... allowed) throws ApiException {
        for (String candidate : allowed) {
            if (candidate.equals(method)) {
                return;
            }
        }
        throw new ApiException(405, "method_not_allowed", "Method " + method + " not allowed");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readObject(HttpExchange exchange) throws ApiException, IOException {
        String text = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Object parsed;
        try {
            parsed = Json.parse(text);
        } catch (Json.ParseException e) {
            throw new ApiException(400, "invalid_json", "Malformed JSON: " + e.getMessage());
        }
        if (!(parsed instanceof Map)) {
            throw new ApiException(400, "invalid_json", "Request body must be a JSON object");
        }
        return (Map<String, Object>) parsed;
    }

    private static Map<String, String> parseQuery(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            query.putIfAbsent(URLDecoder.decode(key, StandardCharsets.UTF_8),
                    URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return query;
    }

    private static void send(HttpExchange exchange, Reply reply) throws IOException {
        if (reply.body == null) {
            exchange.sendResponseHeaders(reply.status, -1);
            exchange.close();
            return;
        }
        byte[] bytes = Json.write(reply.body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(reply.status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
