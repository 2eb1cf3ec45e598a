package io.heaptap.bench;

import io.heaptap.bench.service.Catalog;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The requests the load client sends: request {@code n} is the same in every run and every window
 * (drawn from a generator seeded with n), so on- and off-windows carry the same mix:
 * 35% read a whole order, 20% a customer's page of orders, 15% a product search, 20% replace an order's
 * lines (a write: parse, look up products, delete and insert lines, flush), 10% price a quote.
 */
final class RequestMix {
    enum Kind { ORDER, CUSTOMER_ORDERS, SEARCH, REPLACE_LINES, QUOTE }

    record Request(Kind kind, String method, String path, String json) {
        byte[] bytes() {
            StringBuilder s = new StringBuilder(256).append(method).append(' ').append(path)
                    .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n");
            if (json == null) {
                return s.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
            }
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            s.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n\r\n");
            byte[] head = s.toString().getBytes(StandardCharsets.US_ASCII);
            byte[] all = new byte[head.length + body.length];
            System.arraycopy(head, 0, all, 0, head.length);
            System.arraycopy(body, 0, all, head.length, body.length);
            return all;
        }
    }

    private static final String[] SEARCH_WORDS = {"", "a", "classic", "deluxe", "eco", "grand", "mini", "smart", "1", "2"};

    private RequestMix() {
    }

    static Request request(long n) {
        SplittableRandom random = new SplittableRandom(0x5eed_0000L ^ n);
        int pick = random.nextInt(100);
        if (pick < 35) {
            return new Request(Kind.ORDER, "GET", "/orders/" + (1 + random.nextInt(Catalog.ORDERS)), null);
        }
        if (pick < 55) {
            return new Request(Kind.CUSTOMER_ORDERS, "GET",
                    "/customers/" + (1 + random.nextInt(Catalog.CUSTOMERS)) + "/orders?page=" + random.nextInt(2), null);
        }
        if (pick < 70) {
            return new Request(Kind.SEARCH, "GET", "/products?category=" + Catalog.CATEGORIES[random.nextInt(Catalog.CATEGORIES.length)]
                    + "&q=" + SEARCH_WORDS[random.nextInt(SEARCH_WORDS.length)], null);
        }
        if (pick < 90) {
            return new Request(Kind.REPLACE_LINES, "PUT", "/orders/" + (1 + random.nextInt(Catalog.ORDERS)),
                    "{\"note\":\"request " + n + "\",\"lines\":" + lines(random) + "}");
        }
        return new Request(Kind.QUOTE, "POST", "/quotes",
                "{\"customerId\":" + (1 + random.nextInt(Catalog.CUSTOMERS)) + ",\"lines\":" + lines(random) + "}");
    }

    private static String lines(SplittableRandom random) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 1 + random.nextInt(5); i > 0; i--) {
            s.append(String.format(Locale.ROOT, "{\"sku\":\"%s\",\"quantity\":%d}", Catalog.sku(1 + random.nextInt(Catalog.PRODUCTS)),
                    1 + random.nextInt(4)));
            s.append(i > 1 ? "," : "]");
        }
        return s.toString();
    }
}
