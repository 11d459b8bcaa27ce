package io.qawk.orchestrator.demo;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.inject.spi.CDI;

import io.qawk.orchestrator.demo.DemoFleet.ManifestPart;
import io.qawk.orchestrator.demo.DemoFleet.SetRef;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Creates the demo manifest {@value DemoFleet#MANIFEST} through the manifest service, when this build has one.
 * <p>
 * Looked up by name rather than compiled against, so the demo builds and runs with or without the manifest domain.
 * Expects {@code ManifestService.findByName(String)} and {@code create(ManifestRequest)}, with
 * {@code ManifestRequest(String name, Long systemTypeId, List<ComponentRequest>)} and
 * {@code ComponentRequest(String componentType, Long distributionSetId, Integer order)}. Once manifests are part of
 * every build, this can call the service directly.
 */
final class DemoManifests {

    static final String SERVICE = "io.qawk.orchestrator.manifest.ManifestService";
    static final String REQUEST = "io.qawk.orchestrator.manifest.ManifestRequest";
    static final String COMPONENT_REQUEST = REQUEST + "$ComponentRequest";

    private DemoManifests() {
    }

    /** Creates the manifest unless it exists; says what it did. Never throws. */
    static String ensure(long systemTypeId, Map<SetRef, Long> setIds) {
        Class<?> service;
        Class<?> request;
        Class<?> component;
        try {
            ClassLoader cl = DemoManifests.class.getClassLoader();
            service = Class.forName(SERVICE, false, cl);
            request = Class.forName(REQUEST, false, cl);
            component = Class.forName(COMPONENT_REQUEST, false, cl);
        } catch (ClassNotFoundException e) {
            return "skipped: this build has no manifests";
        }
        try {
            Object bean = CDI.current().select(service).get();
            Method findByName = service.getMethod("findByName", String.class);
            Method create = service.getMethod("create", request);
            Constructor<?> newComponent = component.getConstructor(String.class, Long.class, Integer.class);
            Constructor<?> newRequest = request.getConstructor(String.class, Long.class, List.class);

            List<Object> parts = new ArrayList<>();
            for (ManifestPart p : DemoFleet.MANIFEST_PARTS) {
                parts.add(newComponent.newInstance(p.componentType(), setIds.get(p.set()), p.order()));
            }
            Object body = newRequest.newInstance(DemoFleet.MANIFEST, systemTypeId, parts);
            return QuarkusTransaction.requiringNew().call(() -> {
                if (((Optional<?>) findByName.invoke(bean, DemoFleet.MANIFEST)).isPresent()) {
                    return DemoFleet.MANIFEST + " exists";
                }
                Object created = create.invoke(bean, body);
                Object id = created.getClass().getField("id").get(created);
                return "created " + DemoFleet.MANIFEST + " (id " + id + "): " + describe();
            });
        } catch (NoSuchMethodException e) {
            return "skipped: the manifest service does not have the expected shape (" + e.getMessage() + ")";
        } catch (InvocationTargetException e) {
            return "skipped: " + e.getCause();
        } catch (Exception e) {
            Throwable cause = e.getCause() instanceof InvocationTargetException ite ? ite.getCause() : e;
            return "skipped: " + cause;
        }
    }

    private static String describe() {
        StringBuilder sb = new StringBuilder();
        for (ManifestPart p : DemoFleet.MANIFEST_PARTS) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(p.componentType()).append(" -> ").append(p.set().label()).append(" @").append(p.order());
        }
        return sb.toString();
    }
}
