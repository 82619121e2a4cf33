package inventory;

import java.util.LinkedHashMap;
import java.util.Map;

/** An error that maps to an HTTP status and the documented error body. */
final class ApiException extends Exception {
    final int status;
    final String code;
    final Map<String, String> fields;

    ApiException(int status, String code, String message) {
        this(status, code, message, null);
    }

    ApiException(int status, String code, String message, Map<String, String> fields) {
        super(message);
        this.status = status;
        this.code = code;
        this.fields = fields;
    }

    Map<String, Object> body() {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", getMessage());
        if (fields != null && !fields.isEmpty()) {
            error.put("fields", fields);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", error);
        return body;
    }
}
