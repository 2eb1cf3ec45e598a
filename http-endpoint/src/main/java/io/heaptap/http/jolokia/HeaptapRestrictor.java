package io.heaptap.http.jolokia;

import org.jolokia.server.core.service.api.Restrictor;
import org.jolokia.server.core.util.HttpMethod;
import org.jolokia.server.core.util.RequestType;

import java.util.EnumSet;
import java.util.Set;

import javax.management.ObjectName;

/**
 * What Jolokia may do through heaptap's endpoint: read, list, search and version on every MBean;
 * exec and write only on heaptap's own MBean. heaptap is a memory tool, not a remote console for
 * the application's MBeans. Who may connect and from which origin is decided by the server before
 * Jolokia sees the request, so those checks here only mirror the server's CORS setting.
 */
final class HeaptapRestrictor implements Restrictor {
    private static final Set<RequestType> ALLOWED = EnumSet.of(RequestType.READ, RequestType.LIST, RequestType.SEARCH,
            RequestType.VERSION, RequestType.EXEC, RequestType.WRITE);

    private final ObjectName heaptap;
    private final String allowOrigin;

    HeaptapRestrictor(ObjectName heaptap, String allowOrigin) {
        this.heaptap = heaptap;
        this.allowOrigin = allowOrigin;
    }

    @Override
    public boolean isHttpMethodAllowed(HttpMethod method) {
        return method == HttpMethod.GET || method == HttpMethod.POST;
    }

    @Override
    public boolean isTypeAllowed(RequestType type) {
        return ALLOWED.contains(type);
    }

    @Override
    public boolean isAttributeReadAllowed(ObjectName name, String attribute) {
        return true;
    }

    @Override
    public boolean isAttributeWriteAllowed(ObjectName name, String attribute) {
        return heaptap.apply(name);
    }

    @Override
    public boolean isOperationAllowed(ObjectName name, String operation) {
        return heaptap.apply(name);
    }

    @Override
    public boolean isRemoteAccessAllowed(String... hostOrAddress) {
        return true;
    }

    @Override
    public boolean isOriginAllowed(String origin, boolean onlyWhenStrictCheckingIsEnabled) {
        if (onlyWhenStrictCheckingIsEnabled) {
            return true;  // the server has checked the origin already
        }
        return allowOrigin != null && allowOrigin.equals(origin);
    }

    @Override
    public boolean isObjectNameHidden(ObjectName name) {
        return false;
    }
}
