package io.heaptap.bench.service;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The real service the benchmark measures: an order desk on Tomcat, Spring MVC, Jackson and Spring Data
 * JPA (Hibernate) over H2 in memory. Nothing in it allocates for the sake of allocating: every byte is the
 * frameworks' own work for a request (parsing, binding, queries, entity loading, dirty checking, mapping,
 * serialising). It prints {@code ready port N} once the catalog is seeded and Tomcat listens, so the
 * driver waits on that line and not on a clock.
 */
@SpringBootApplication
public class ServiceApp {
    public static void main(String[] args) {
        ConfigurableApplicationContext context = SpringApplication.run(ServiceApp.class, args);
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        System.out.println("ready port " + port);
        System.out.flush();
    }
}
