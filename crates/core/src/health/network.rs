//! What serves traffic: Service, Ingress, APIService (gitops-engine's
//! health_service.go, health_ingress.go, health_apiservice.go).

use super::{condition, list, text, Health};
use crate::value::ValueRef;

/// Healthy, except a load balancer still waiting for its address.
pub(super) fn service(service: ValueRef) -> Health {
    if text(service, &["spec", "type"]) == "LoadBalancer" {
        return addressed(service);
    }
    Health::Healthy
}

/// Healthy once the ingress controller has given it an address.
pub(super) fn ingress(ingress: ValueRef) -> Health {
    addressed(ingress)
}

fn addressed(object: ValueRef) -> Health {
    if list(object, &["status", "loadBalancer", "ingress"]).len() == 0 {
        Health::Progressing
    } else {
        Health::Healthy
    }
}

/// Healthy when its `Available` condition is true; otherwise waiting.
pub(super) fn api_service(service: ValueRef) -> Health {
    match condition(service, "Available") {
        Some(available) if text(available, &["status"]) == "True" => Health::Healthy,
        _ => Health::Progressing,
    }
}
